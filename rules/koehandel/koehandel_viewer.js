// Koehandel: each player's animals and money after every turn, the auctions with their bids, the
// cow trades with both offers, bluffs and default actions, and the quartets and scores. The
// arbiter replays the game through its engine from the record's seed with each seat answering
// as its log says, so the page sees everything (money included, which the players never do).
'use strict';
ArbiterView.renderers.koehandel = function (data, board) {
  var el = ArbiterView.el;
  var replay = data.replay;
  var turns = replay.turns;
  var seats = ArbiterView.seatsOf(data, []);
  var names = [];
  for (var s = 0; s < replay.seats; s++) names.push(seats[s] ? seats[s].name : 'house ' + (s + 1));
  var kindValue = [10, 40, 90, 160, 250, 350, 500, 650, 800, 1000];
  var moneyLetter = ['n', 't', 'f', 'h', 'T', 'F'], moneyValue = [0, 10, 50, 100, 200, 500];
  // Money cards as their values, smallest first, and their sum: "0, 10, 10, 50 = 70".
  function valuesText(values) {
    if (!values.length) return 'no cards';
    values.sort(function (a, b) { return a - b; });
    var parts = [];  // three or more cards of a value as "10\u00d78"
    for (var i = 0; i < values.length;) {
      var j = i;
      while (j < values.length && values[j] === values[i]) j++;
      for (var k = i; k < j; k++) if (j - i < 3) parts.push(String(values[i]));
      if (j - i >= 3) parts.push(values[i] + '\u00d7' + (j - i));
      i = j;
    }
    return parts.join(', ') + ' = ' + values.reduce(function (a, v) { return a + v; }, 0);
  }
  function moneyText(m) {  // counts per kind of card
    var values = [];
    for (var k = 0; k < moneyLetter.length; k++) for (var i = 0; i < m[k]; i++) values.push(moneyValue[k]);
    return valuesText(values);
  }
  function query(reply) {
    var q = {};
    String(reply || '').replace(/^\?/, '').split('&').forEach(function (pair) {
      var i = pair.indexOf('=');
      if (i > 0) q[decodeURIComponent(pair.slice(0, i).replace(/\+/g, ' '))] = decodeURIComponent(pair.slice(i + 1).replace(/\+/g, ' '));
    });
    return q;
  }
  function who(s) { return names[s] !== undefined ? names[s] : 'seat ' + (s + 1); }
  function valuesOf(text) {  // cards as the protocol spells them, one letter a card
    var values = [];
    for (var i = 0; i < (text || '').length; i++) {
      var k = moneyLetter.indexOf(text[i]);
      if (k >= 0) values.push(moneyValue[k]);
    }
    return values;
  }
  function money(text) { return valuesText(valuesOf(text)); }
  // An auction bid is an amount (spelled in the same letters).
  function amount(text) { return String(valuesOf(text).reduce(function (a, v) { return a + v; }, 0)); }
  function describe(e) {
    var f = e.fields || {}, p = who(e.seat), q = query(e.reply), none = e.reply === null || e.reply === undefined;
    switch (e.type) {
      case 'start':
        if (q.type === 'auction') return p + ' puts the top card up for auction';
        if (q.type === 'trade') return p + ' challenges ' + (q.opponent ? 'the player at ' + q.opponent : '?') +
          ' for ' + (q.goods || '?') + ', offering ' + money(q.money || '');
        if (!seats[e.seat]) return p + ' passes its turn (a house seat answers nothing)';
        return p + (none ? ' does not answer its turn' : ' passes its turn');
      case 'auction':
        if (f.auctioneer)
          return p + (q.money ? ' bids ' + amount(q.money) : ' passes') + ' on ' + f.goods + ' (high bid ' + amount(f.money) + ')';
        return p + ', the auctioneer, ' + (q.money ? 'buys ' + f.goods + ' itself for ' + amount(q.money) : 'sells ' + f.goods + ' for ' + amount(f.money));
      case 'trade':
        return p + ', challenged by ' + who(e.opponent_seat) + ' for ' + f.goods + ' (offer of ' + (f.money || '').length +
          ' cards), ' + (q.money ? 'counters with ' + money(q.money) : 'accepts');
      case 'collect':
        if (e.asked) return p + ' pays ' + who(e.opponent_seat) + ' ' + (q.money ? money(q.money) : money(f.money) + ' (chosen for it)');
        return p + ' gives ' + (f.goods || money(f.money || '')) + ' to ' + who(e.opponent_seat);
      case 'receive':
        return p + ' receives ' + (f.goods || money(f.money || '')) + (e.opponent_seat !== undefined ? ' from ' + who(e.opponent_seat) : '');
      case 'information':
        return who(e.opponent_seat) + ' bluffed: could not pay, shows ' + money(f.money || '');
      case 'default': return p + ': default action, ' + e.text;
      case 'out': return p + ' is out: ' + e.text;
      case 'fault': return p + ': ' + e.text;
    }
    return p + ': ' + e.type;
  }
  var root = el('div', { 'class': 'kh-board' });
  board.appendChild(root);
  var style = el('style');
  style.textContent = '.kh-board table.small{width:100%;font-size:14px}.kh-board td,.kh-board th{padding:3px 8px}' +
    '.kh-board .events{font-size:13px}.kh-quartet{font-weight:700;background:#fff3c4;color:#222}' +
    '.kh-chip{border:1px solid #bbb;border-radius:3px;padding:0 4px;background:#fff;color:#222}';
  board.appendChild(style);
  function sample(text, cls) { return el('span', { 'class': 'kh-chip' + (cls ? ' ' + cls : '') }, text); }
  ArbiterView.legend([
    { node: sample('C90\u00d72'), label: 'animals: kind A..J with its value (A 10 .. J 1000) \u00d7 cards held' },
    { node: sample('F350\u00d74', 'kh-quartet'), label: 'a quartet (all four: scores)' },
    { node: sample('0, 10, 10, 50\u00d73 = 170'), label: 'money cards by value (\u00d7 how many) = their total' },
    { node: sample('no cards'), label: 'an empty offer or hand' }
  ]);
  function draw(i) {
    var t = turns[i];
    root.textContent = '';
    var table = el('table', { 'class': 'small' });
    var head = el('tr');
    ['player', 'animals (quartets bold)', 'money cards = total', 'score'].forEach(function (h) { head.appendChild(el('th', null, h)); });
    table.appendChild(head);
    t.players.forEach(function (pl, s) {
      var tr = el('tr');
      var name = el('td', null, who(s) + (pl.barred ? ' (barred)' : ''));
      if (seats[s]) name.style.borderLeft = '5px solid ' + seats[s].colour;
      tr.appendChild(name);
      var animals = el('td');
      animals.style.textAlign = 'left';
      pl.animals.forEach(function (n, k) {
        if (!n) return;
        animals.appendChild(el('span', n === 4 ? { 'class': 'kh-quartet' } : null,
          String.fromCharCode(65 + k) + kindValue[k] + '\u00d7' + n));
        animals.appendChild(document.createTextNode(' '));
      });
      tr.appendChild(animals);
      tr.appendChild(el('td', null, moneyText(pl.money)));
      tr.appendChild(el('td', null, String(pl.score)));
      table.appendChild(tr);
    });
    root.appendChild(table);
    root.appendChild(el('p', null, 'deck: ' + t.deck + ' cards; donkey money still in the bank: ' + t.bank +
      (i === turns.length - 1 && replay.end_reason ? '; game over (' + replay.end_reason + ')' : '')));
    var list = el('div', { 'class': 'events' });
    list.textContent = t.events.length ? t.events.map(describe).join('\n') : (i === 0 ? 'the cards are dealt' : '');
    root.appendChild(list);
  }
  // A seat put out is listed at its turn; a seat the record says failed without being put out (a
  // crashed server gets default actions from then on) at the turn of its first fault.
  var faults = [], firstFault = {};
  turns.forEach(function (t, i) {
    t.events.forEach(function (e) {
      if (e.seat >= seats.length) return;
      if (e.type === 'out') faults.push({ frame: i, seat: e.seat, text: 'out: ' + e.text });
      if (e.type === 'fault' && !(e.seat in firstFault)) firstFault[e.seat] = { frame: i, seat: e.seat, text: e.text };
    });
  });
  Object.keys(firstFault).forEach(function (k) {
    var f = firstFault[k];
    if (ArbiterView.statusKind(seats[f.seat].status) !== 'ok' && !faults.some(function (o) { return o.seat === f.seat; }))
      faults.push(f);
  });
  return {
    seats: seats, frames: turns.length, draw: draw, faults: faults,
    scores: function (i) { return seats.map(function (s, k) { return turns[i].players[k].score; }); },
    label: function (i) { return i === 0 ? 'start' : 'turn ' + turns[i].turn; }
  };
};
