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
  function cardsValue(text) {
    var v = 0;
    for (var i = 0; i < (text || '').length; i++) { var k = moneyLetter.indexOf(text[i]); if (k >= 0) v += moneyValue[k]; }
    return v;
  }
  function moneyText(m) {
    var out = '';
    for (var k = moneyLetter.length - 1; k >= 0; k--) for (var i = 0; i < m[k]; i++) out += moneyLetter[k];
    return out || '-';
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
  function money(text) { return text + ' (' + cardsValue(text) + ')'; }
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
          return p + (q.money ? ' bids ' + money(q.money) : ' passes') + ' on ' + f.goods + ' (high bid ' + (f.money || '0') + ')';
        return p + ', the auctioneer, ' + (q.money ? 'buys ' + f.goods + ' itself for ' + money(q.money) : 'sells ' + f.goods + ' for ' + (f.money || '0'));
      case 'trade':
        return p + ', challenged by ' + who(e.opponent_seat) + ' for ' + f.goods + ' (offer of ' + (f.money || '').length +
          ' cards), ' + (q.money ? 'counters with ' + money(q.money) : 'accepts');
      case 'collect':
        if (e.asked) return p + ' pays ' + who(e.opponent_seat) + ' ' + (q.money ? money(q.money) : f.money + ' (chosen for it)');
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
  var root = el('div');
  board.appendChild(root);
  function draw(i) {
    var t = turns[i];
    root.textContent = '';
    var table = el('table', { 'class': 'small' });
    var head = el('tr');
    ['player', 'animals (quartets bold)', 'money', 'value', 'score'].forEach(function (h) { head.appendChild(el('th', null, h)); });
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
        var span = el('span', null, String.fromCharCode(65 + k) + kindValue[k] + '\u00d7' + n + ' ');
        if (n === 4) span.style.fontWeight = '700';
        animals.appendChild(span);
      });
      tr.appendChild(animals);
      tr.appendChild(el('td', null, moneyText(pl.money)));
      tr.appendChild(el('td', null, String(pl.money.reduce(function (a, n, k) { return a + n * moneyValue[k]; }, 0))));
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
  var faults = [];
  turns.forEach(function (t, i) {
    t.events.forEach(function (e) { if (e.type === 'out' && e.seat < seats.length) faults.push({ frame: i, seat: e.seat, text: 'out: ' + e.text }); });
  });
  return {
    seats: seats, frames: turns.length, draw: draw, faults: faults,
    scores: function (i) { return seats.map(function (s, k) { return turns[i].players[k].score; }); },
    label: function (i) { return i === 0 ? 'start' : 'turn ' + turns[i].turn; }
  };
};
