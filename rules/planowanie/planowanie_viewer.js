// Planowanie: per deal the four hands, the declarations, each trick card by card with its winner,
// tricks taken against declared, and the points per deal, from the arbiter's game log.
'use strict';
ArbiterView.renderers.planowanie = function (data, board) {
  var el = ArbiterView.el;
  var log = data.replay;
  var n = log.players;
  var fallback = [];
  for (var p = 0; p < n; p++) fallback.push('seat ' + (p + 1));
  var seats = ArbiterView.seatsOf(data, fallback);
  var suitSigns = { C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660' };

  // One frame per deal start, per declaration round and per card played.
  var frames = [];
  var total = [];
  for (p = 0; p < n; p++) total.push(0);
  log.deals.forEach(function (deal, d) {
    var before = total.slice();
    frames.push({ deal: d, phase: 'dealt', trick: -1, card: -1, scores: before });
    if (deal.declarations && deal.declarations.length)
      frames.push({ deal: d, phase: 'declared', trick: -1, card: -1, scores: before });
    (deal.tricks || []).forEach(function (trick, t) {
      trick.cards.forEach(function (card, c) {
        var last = t === deal.tricks.length - 1 && c === trick.cards.length - 1;
        var after = before;
        if (last && deal.points && deal.points.length) {
          after = before.map(function (v, i) { return v + deal.points[i]; });
          total = after;
        }
        frames.push({ deal: d, phase: 'play', trick: t, card: c, scores: after });
      });
    });
  });
  if (!frames.length) frames.push({ deal: -1, phase: 'none', trick: -1, card: -1, scores: total });
  // A match that ended waiting for a declaration round or a card has that request as its last
  // step: drawn as the frame before it, with the seats that failed to answer.
  var faults = [];
  if (log.fault && Array.isArray(log.fault.seats)) {
    var last = frames[frames.length - 1];
    frames.push({ deal: last.deal, phase: last.phase, trick: last.trick, card: last.card, scores: last.scores,
      unanswered: log.fault });
    log.fault.seats.forEach(function (s) {
      if (s >= 0 && s < n) faults.push({ frame: frames.length - 1, seat: s, text: log.fault.during === 'play' ? 'no card' : 'no declaration' });
    });
  }
  if (Array.isArray(log.scores) && log.scores.length === n) frames[frames.length - 1].scores = log.scores.slice();

  function cardNode(card, extra) {
    var s = String(card);
    var suit = s.slice(-1), value = s.slice(0, -1);
    var span = el('span', { 'class': 'card' + (extra ? ' ' + extra : '') }, value + (suitSigns[suit] || suit));
    if (suit === 'D' || suit === 'H') span.classList.add('red');
    return span;
  }
  var style = el('style');
  style.textContent = '.pl-table{display:grid;grid-template-columns:1fr 1.2fr 1fr;grid-template-rows:auto auto auto;' +
    'gap:10px;width:100%;min-width:560px}.pl-seat{border:2px solid #ccc;border-radius:6px;padding:6px;background:#f4f8f4}' +
    '.pl-seat h3{margin:0 0 4px;font-size:14px}.card{display:inline-block;border:1px solid #999;border-radius:3px;' +
    'padding:1px 5px;margin:1px;background:#fff;color:#111;font-weight:600;font-size:15px}.card.red{color:#c62828}' +
    '.card.played{opacity:.3}.card.win{outline:3px solid #fbc02d}' +
    '.pl-bid{font-weight:600;background:#fff;color:#222;border:1px solid #999;border-radius:3px;padding:0 4px}' +
    '.pl-mid{grid-column:2;grid-row:2;text-align:center;background:#2e7d32;color:#fff;border-radius:8px;padding:10px}' +
    '.pl-fault{margin-top:6px;font-weight:600;background:#fff;color:#c62828;border-radius:3px;padding:2px 4px}';
  board.appendChild(style);
  var root = el('div');
  board.appendChild(root);
  ArbiterView.legend([
    { node: cardNode('AC'), label: 'clubs' }, { node: cardNode('AD'), label: 'diamonds' },
    { node: cardNode('AH'), label: 'hearts' }, { node: cardNode('AS'), label: 'spades' },
    { node: cardNode('9S', 'played'), label: 'played' }, { node: cardNode('KH', 'win'), label: 'takes the trick' },
    { node: el('span', { 'class': 'pl-bid' }, 'declared 2, taken 1'), label: 'tricks the seat said it would take, tricks it took' }
  ]);

  function played(deal, f) {  // cards each seat has played up to frame f, and the trick in progress
    var out = seats.map(function () { return {}; });
    if (f.phase !== 'play') return out;
    for (var t = 0; t <= f.trick; t++) {
      var trick = deal.tricks[t];
      trick.cards.forEach(function (card, c) {
        if (t < f.trick || c <= f.card) out[(trick.leader + c) % n][card] = true;
      });
    }
    return out;
  }
  function draw(i) {
    var f = frames[i];
    root.textContent = '';
    if (f.deal < 0) { root.appendChild(el('p', null, 'no deals in this log')); return; }
    var deal = log.deals[f.deal];
    var gone = played(deal, f);
    var taken = seats.map(function () { return 0; });
    for (var t = 0; t < (f.phase === 'play' ? f.trick : 0); t++) if (deal.tricks[t].winner !== undefined) taken[deal.tricks[t].winner]++;
    var trick = f.phase === 'play' ? deal.tricks[f.trick] : null;
    var complete = trick && f.card === trick.cards.length - 1 && trick.winner !== undefined && trick.winner !== null;
    if (complete) taken[trick.winner]++;
    var table = el('div', { 'class': 'pl-table' });
    var order = n === 4 ? [[3, 2], [2, 1], [1, 2], [2, 3]] : null;
    seats.forEach(function (s, p) {
      var box = el('div', { 'class': 'pl-seat' });
      box.style.borderColor = s.colour;
      if (order) { box.style.gridRow = String(order[p][0]); box.style.gridColumn = String(order[p][1]); }
      var decl = f.phase === 'dealt' || !deal.declarations || !deal.declarations.length ? '?' : deal.declarations[p];
      var h3 = el('h3', null, s.name + (p === deal.starter ? ' (starts) ' : ' '));
      h3.appendChild(el('span', { 'class': 'pl-bid' }, 'declared ' + decl + ', taken ' + taken[p]));
      box.appendChild(h3);
      (deal.hands[p] || []).forEach(function (card) { box.appendChild(cardNode(card, gone[p][card] ? 'played' : '')); });
      table.appendChild(box);
    });
    var mid = el('div', { 'class': 'pl-mid' });
    mid.appendChild(el('div', null, 'deal ' + (f.deal + 1) + ' of ' + log.deals.length + ', ' + deal.cards + ' card' +
      (deal.cards === 1 ? '' : 's')));
    if (trick) {
      mid.appendChild(el('div', null, 'trick ' + (f.trick + 1) + ', led by ' + seats[trick.leader].name));
      var line = el('div');
      for (var c = 0; c <= f.card; c++) {
        var who = (trick.leader + c) % n;
        line.appendChild(cardNode(trick.cards[c], complete && who === trick.winner ? 'win' : ''));
      }
      mid.appendChild(line);
      if (complete) mid.appendChild(el('div', null, seats[trick.winner].name + ' takes it'));
    } else mid.appendChild(el('div', null, f.phase === 'dealt' ? 'hands dealt' : 'declarations made'));
    if (f.unanswered) {
      var names = f.unanswered.seats.map(function (s) { return seats[s] ? seats[s].name : 'seat ' + s; }).join(', ');
      mid.appendChild(el('div', { 'class': 'pl-fault' }, names + ': no ' + (f.unanswered.during === 'play' ? 'card' : 'declaration') +
        ' (the match ends)'));
    }
    table.appendChild(mid);
    root.appendChild(table);
    root.appendChild(pointsTable(i));
  }
  function pointsTable(i) {  // points per finished deal up to this frame
    var f = frames[i];
    var table = el('table', { 'class': 'small' });
    var head = el('tr');
    head.appendChild(el('th', null, 'deal'));
    seats.forEach(function (s) { head.appendChild(el('th', null, s.name)); });
    table.appendChild(head);
    log.deals.forEach(function (deal, d) {
      var done = d < f.deal || (d === f.deal && frames[i].scores !== frames[Math.max(0, i - 1)].scores && f.phase === 'play');
      if (!done || !deal.points || !deal.points.length) return;
      var tr = el('tr');
      tr.appendChild(el('td', null, String(d + 1)));
      deal.points.forEach(function (v) { tr.appendChild(el('td', null, String(v))); });
      table.appendChild(tr);
    });
    return table;
  }
  return {
    seats: seats, frames: frames.length, draw: draw, faults: faults,
    scores: function (i) { return frames[i].scores; },
    label: function (i) {
      var f = frames[i];
      if (f.deal < 0) return 'empty';
      if (f.unanswered) return 'deal ' + (f.deal + 1) + ', ' + (f.unanswered.during === 'play' ? 'a card' : 'declarations') + ' not given';
      return 'deal ' + (f.deal + 1) + (f.phase === 'play' ? ', trick ' + (f.trick + 1) + ', card ' + (f.card + 1) : ', ' + f.phase);
    }
  };
};
