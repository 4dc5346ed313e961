// A running match's page: follows its events; once the match is stored, links to its viewer.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const source = new EventSource(document.body.dataset.events);
  // The board: the game's viewer over the replay its referee has written so far, loaded again
  // when the board's step moves (at most once a second) and shown at its last frame, unless the
  // reader has stepped back in it: then it stays where they are until they come back to the end.
  const frames = $('frames');
  let loadedAt = 0, boardStep = null, lastFrame = null;
  function frameShown() {
    try {
      const m = /frame=(\d+)/.exec(frames.contentWindow.location.hash);
      return m ? Number(m[1]) : null;
    } catch (e) { return null; }
  }
  frames.addEventListener('load', () => { setTimeout(() => { lastFrame = frameShown(); }, 50); });
  function showFrames(step) {
    if (step === boardStep || Date.now() - loadedAt < 1000) return;
    const shown = frameShown();
    if (lastFrame !== null && shown !== null && shown < lastFrame) {
      $('board').textContent = `The board has moved on to step ${step}: step to the last frame to follow it again.`;
      return;
    }
    loadedAt = Date.now();
    boardStep = step;
    frames.hidden = false;
    $('board').textContent = `The board at step ${step}, following the match.`;
    frames.src = document.body.dataset.events.replace('/events/', '/frames/') + '?step=' + step + '#frame=999999';
  }
  source.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.finished) {
      $('status').textContent = 'Finished. ';
      const a = document.createElement('a'); a.href = m.finished; a.textContent = 'Watch it in the viewer'; a.id = 'watch';
      $('status').append(a);
      source.close();
      return;
    }
    if (m.frames) showFrames(m.board_step);
    if (m.gone) { $('status').textContent = 'This match is no longer running (the run stopped).'; return; }
    $('status').textContent = `${m.bots.join(' vs ')}, seed ${m.seed}: step ${m.step < 0 ? '–' : m.step}` +
      (m.delay_steps ? ` (shown ${m.delay_steps} steps behind)` : '') + `, ${m.elapsed_s.toFixed(1)} s`;
    const rows = m.seats.map((s) => {
      const tr = document.createElement('tr');
      for (const v of [s.seat, s.requests, (s.charged_ms / 1000).toFixed(3) + ' s']) {
        const td = document.createElement('td'); td.textContent = v; tr.append(td);
      }
      return tr;
    });
    $('seats').replaceChildren(...rows);
    const pre = $('lines');
    const atEnd = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
    pre.textContent = m.lines.join('\n');
    if (atEnd) pre.scrollTop = pre.scrollHeight;
  };
})();
