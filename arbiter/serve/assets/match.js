// A running match's page: follows its events; once the match is stored, links to its viewer.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const source = new EventSource(document.body.dataset.events);
  // The board, where the game's replay is written as it plays: its viewer at the last step,
  // loaded again every few seconds (the query only keeps the browser from reusing the last one).
  const frames = document.getElementById('frames');
  let loaded = 0;
  function showFrames() {
    if (Date.now() - loaded < 3000) return;
    loaded = Date.now();
    frames.hidden = false;
    frames.src = document.body.dataset.events.replace('/events/', '/frames/') + '?n=' + loaded + '#frame=999999';
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
    if (m.frames) showFrames();
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
