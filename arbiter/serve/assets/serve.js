// The live page: follows /events (server-sent events) and redraws from each state it is sent.
// Everything from the files is put in as text (textContent), never as markup.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }
  function table(headers, rows, cls) {
    const t = el('table', cls ? { class: cls } : {});
    const h = el('tr');
    for (const [text, left] of headers) h.append(el('th', { class: left ? 'l' : '', text }));
    t.append(h);
    for (const r of rows) t.append(r);
    return t;
  }
  function td(text, left) { return el('td', { class: left === 2 ? 'l w' : left ? 'l' : '', text: String(text) }); }
  function clock(s) {
    s = Math.max(0, Math.round(s));
    const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, x = s % 60;
    return (h ? h + ':' + String(m).padStart(2, '0') : m) + ':' + String(x).padStart(2, '0');
  }
  function interval(rows) {
    let lo = Infinity, hi = -Infinity;
    for (const r of rows) { lo = Math.min(lo, r.elo - r.minus); hi = Math.max(hi, r.elo + r.plus); }
    if (!(hi > lo)) { lo -= 1; hi += 1; }
    return (r) => {
      const x = (v) => ((v - lo) / (hi - lo) * 100).toFixed(2) + '%';
      const bar = el('div', { class: 'ci', title: `${r.elo.toFixed(0)} (-${r.minus.toFixed(0)} +${r.plus.toFixed(0)})` });
      const span = el('span'); span.style.left = x(r.elo - r.minus);
      span.style.width = ((r.plus + r.minus) / (hi - lo) * 100).toFixed(2) + '%';
      const mark = el('i'); mark.style.left = x(r.elo);
      bar.append(span, mark);
      return el('td', { class: 'bar' }, bar);
    };
  }
  function standings(rows) {
    if (!rows.length) return el('p', { class: 'note', text: 'No pairwise results yet.' });
    const bar = interval(rows);
    return table([['#'], ['bot', 1], ['Elo'], ['−'], ['+'], ['95% interval', 1], ['games'], ['score']], rows.map((r) =>
      el('tr', {}, td(r.rank), td(r.bot, 1), td(r.elo.toFixed(0)), td(r.minus.toFixed(0)), td(r.plus.toFixed(0)),
        bar(r), td(r.games), td((r.score * 100).toFixed(1) + '%'))), 'standings');
  }
  function options(o) {
    if (!o || typeof o !== 'object') return '';
    // File options by their name only, long values cut: the line says which map or deal, briefly.
    return Object.entries(o).filter(([, v]) => String(v) !== '').map(([k, v]) => {
      const text = String(v).split('/').pop();
      return k + '=' + (text.length > 24 ? text.slice(0, 23) + '…' : text);
    }).join(' ');
  }
  function running(list, delay) {
    if (!list.length) return null;
    const rows = list.map((m) => {
      const used = m.seats.map((s) => `${s.seat} ${(s.charged_ms / 1000).toFixed(2)}s`).join(', ');
      return el('tr', {}, el('td', { class: 'l' }, el('a', { href: m.href, text: m.name })), td(m.bots.join(' vs '), 2),
        td(('seed ' + m.seed + ' ' + options(m.options)).trim(), 2), td(m.step < 0 ? '–' : m.step),
        td(clock(m.elapsed_s)), td(used, 2));
    });
    return el('div', {}, el('h3', { text: `Playing now (${list.length})` + (delay ? `, shown ${delay} steps behind` : '') }),
      table([['match', 1], ['bots', 1], ['map / deal', 1], ['step'], ['elapsed'], ['time used', 1]], rows, 'running'));
  }
  function recent(list) {
    if (!list.length) return null;
    // The map or field column only where a match of the list was played on one.
    const maps = list.some((m) => m.map);
    const rows = list.map((m) => el('tr', {}, el('td', { class: 'l' }, el('a', { href: m.href, text: m.key })),
      maps ? td(m.map || '', 2) : null,
      td(m.seats.map((s) => `${s.bot} ${s.rank === 1 ? '1st' : '#' + s.rank} ${s.score}` +
        (s.status !== 'ok' ? ` (${s.status})` : '')).join(', '), 2), td(m.wall_s.toFixed(1) + ' s')));
    const head = [['match', 1]].concat(maps ? [['map', 1]] : [], [['result', 1], ['wall']]);
    return el('div', {}, el('h3', { text: 'Finished (latest first; a key opens its viewer)' }),
      table(head, rows, 'recent'));
  }
  function tournament(src, t, delay) {
    const s = t.status;
    const when = s === 'running' ? `since ${t.runner_since}` : s === 'ended' ? `ended ${t.last_stored_at}` :
      `interrupted` + (t.last_stored_at ? `; last result ${t.last_stored_at}` : '');
    const card = el('section', { class: 'card tournament', 'data-name': t.name },
      el('h2', {}, el('span', { text: `${t.name} (${t.game})` }), el('span', { class: 'badge ' + s, text: s }),
        el('span', { class: 'note', text: when }), el('span', { class: 'db', text: src.db })));
    const pct = t.scheduled ? Math.min(100, 100 * t.stored / t.scheduled) : 0;
    const bar = el('div', { class: 'progress' }, el('div')); bar.firstChild.style.width = pct.toFixed(1) + '%';
    let line = `${t.stored} of ${t.scheduled} scheduled matches stored`;
    if (t.rate) line += `, ${(t.rate * 60).toFixed(1)} matches/min`;
    if (t.eta_s !== undefined) line += `, ETA ${clock(t.eta_s)}`;
    card.append(bar, el('p', { class: 'note progress-text', text: line }));
    card.append(running(t.running, delay) || '');
    card.append(el('div', { class: 'cols' }, el('div', {}, el('h3', { text: 'Standings (BayesElo, 95% intervals)' }),
      standings(t.standings)), el('div', {}, recent(t.recent))));
    return card;
  }
  function ladder(src, g) {
    const card = el('section', { class: 'card ladder' },
      el('h2', {}, el('span', { text: `Ladder: ${g.game}` }), el('span', { class: 'db', text: src.db })));
    const fmt = (r) => r.elo === undefined ? '' : `${r.elo.toFixed(0)} (−${r.minus.toFixed(0)} +${r.plus.toFixed(0)})`;
    card.append(el('h3', { text: 'Runs, oldest first' }), table(
      [['version', 1], ['against', 1], ['verdict', 1], ['LOS'], ['matches'], ['Elo then'], ['finished', 1]],
      g.runs.map((r) => el('tr', {}, td(r.bot, 1), td(r.previous || '', 1),
        el('td', { class: 'l ' + r.verdict.split(' ')[0], text: r.verdict }), td((r.los * 100).toFixed(1) + '%'),
        td(r.matches), td(fmt(r)), td(r.finished_at, 1))), 'runs'));
    if (g.versions.length) {
      const rows = g.versions.map((v) => Object.assign({}, v)).sort((a, b) => b.elo - a.elo);
      const bar = interval(rows);
      card.append(el('h3', { text: 'Elo by version (latest run)' }), table([['version', 1], ['Elo'], ['−'], ['+'],
        ['95% interval', 1], ['games']], rows.map((r) => el('tr', {}, td(r.bot, 1), td(r.elo.toFixed(0)),
        td(r.minus.toFixed(0)), td(r.plus.toFixed(0)), bar(r), td(r.games)))));
    }
    return card;
  }
  function render(state) {
    const main = $('content');
    const out = [];
    for (const src of state.sources) {
      if (src.error) { out.push(el('section', { class: 'card' }, el('h2', {}, el('span', { text: src.db })),
        el('p', { class: 'error', text: src.error }))); continue; }
      for (const t of src.tournaments) out.push(tournament(src, t, state.delay_steps));
      for (const g of src.ladders) out.push(ladder(src, g));
      if (!src.tournaments.length && !src.ladders.length)
        out.push(el('section', { class: 'card' }, el('h2', {}, el('span', { text: src.db })),
          el('p', { class: 'note', text: 'No tournament or ladder in this file yet.' })));
    }
    main.replaceChildren(...out);
    $('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
  }
  const events = new EventSource('/events');
  events.onopen = () => { $('conn').textContent = 'live'; $('conn').className = 'up'; };
  events.onerror = () => { $('conn').textContent = 'disconnected, retrying'; $('conn').className = 'down'; };
  events.onmessage = (e) => render(JSON.parse(e.data));
})();
