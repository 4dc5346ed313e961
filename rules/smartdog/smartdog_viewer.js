// smart-dog: the torus grid with pens, fences and trees, dogs, sheep, barks and scared sheep,
// turn by turn, from the wire transcript (ours or the original server's). The transcript holds
// what each player was sent, so the board shows the union of what the players saw; scores are
// not on the wire and appear at the end, from the transcript's final lines or the record.
'use strict';
ArbiterView.terrain = ArbiterView.terrain || {};
ArbiterView.terrain.smartdog = { grass: '#d3d9c6', fence: '#5b4636', tree: '#4d6650', scared: '#ffe74c' };

ArbiterView.renderers.smartdog = function (data, board, controls) {
  var el = ArbiterView.el;
  var T = ArbiterView.terrain.smartdog;
  var lines = data.replay.lines;
  var players = 0, landscape = null, turns = [], current = null;
  var finals = {}, faults = [], notes = [];
  function fields(text) {  // "key":value,... as the original sends them
    try { return JSON.parse('{' + text + '}'); } catch (e) { return null; }
  }
  var turnOfPlayer = {};
  lines.forEach(function (line) {
    var m;
    if ((m = /^# final score P(\d+) = (-?[\d.]+)/.exec(line))) { finals[Number(m[1]) - 1] = Number(m[2]); return; }
    if ((m = /^# P(\d+) out: (.*)/.exec(line))) {
      faults.push({ frame: Math.max(0, turns.length - 1), seat: Number(m[1]) - 1, text: m[2] });
      return;
    }
    if (line[0] === '#') { notes.push(line); return; }
    if (!(m = /^P(\d+) ([<>]) ?(.*)$/.exec(line))) return;
    var player = Number(m[1]), sent = m[2] === '<', text = m[3];
    players = Math.max(players, player);
    if (sent && text.indexOf('landscape ') === 0 && !landscape) {
      landscape = JSON.parse('[' + text.slice(10) + ']');
    } else if (sent && (m = /^state\s+"turn":(\d+)/.exec(text))) {
      var n = Number(m[1]);
      turnOfPlayer[player] = n;
      if (!current || current.turn !== n) {
        current = turns.length && turns[turns.length - 1].turn === n ? turns[turns.length - 1] : null;
        if (!current) { current = { turn: n, dogs: {}, sheep: {}, barks: [], events: [] }; turns.push(current); }
      }
    } else if (sent && text.indexOf('obj ') === 0 && current) {
      var o = fields(text.slice(4).trim());
      if (!o) return;
      if (o.type === 'Dog') current.dogs[o.id] = o;
      else if (o.type === 'Sheep') current.sheep[o.x + ',' + o.y] = o;
      else if (o.voice) current.barks.push(o);
    } else if (current && (m = /^do (\d+) bark/.exec(text)) && !sent) {
      current.events.push({ player: player, text: ' dog ' + m[1] + ' barks' });
    } else if (current && sent && /^(warning|error) /.test(text)) {
      current.events.push({ player: player, to: true, text: text });
    }
  });
  if (!landscape) throw new Error('the transcript has no landscape line');
  if (!turns.length) turns.push({ turn: 0, dogs: {}, sheep: {}, barks: [], events: [] });
  var fallback = [];
  for (var p = 0; p < players; p++) fallback.push('P' + (p + 1));
  var seats = ArbiterView.seatsOf(data, fallback);
  var rows = landscape.length, cols = landscape[0].length;
  var zoom = ArbiterView.zoomable(board, controls, { id: 'smartdog-board', cols: cols, rows: rows, minCell: 4, maxCell: 64 });
  var info = el('div', { 'class': 'events' });
  board.appendChild(info);
  var ctx = zoom.ctx;
  // Every turn, then the final scores; a match still playing (data.live, arbiter serve) has none yet.
  var frames = Math.max(turns.length + (data.live ? 0 : 1), 1);
  var penCount = turns.map(sheepInPens);

  function penOf(r, c) {  // the seat whose pen the cell is in, else -1
    var ch = landscape[r] && landscape[r][c];
    return ch >= '1' && ch <= '9' ? Number(ch) - 1 : -1;
  }
  function sheepInPens(t) {
    var inPens = seats.map(function () { return 0; });
    Object.keys(t.sheep).forEach(function (k) {
      var pen = penOf(t.sheep[k].y, t.sheep[k].x);
      if (pen >= 0 && pen < inPens.length) inPens[pen]++;
    });
    return inPens;
  }
  function groundMark(c, x, y, s, ch) {
    c.fillStyle = T.grass; c.fillRect(x, y, s, s);
    if (ch === '#') {
      c.fillStyle = T.fence; c.fillRect(x, y + s * 0.3, s, s * 0.4);
      c.fillRect(x + s * 0.1, y, s * 0.2, s); c.fillRect(x + s * 0.7, y, s * 0.2, s);
    } else if (ch === '^') {
      c.fillStyle = T.tree; c.beginPath();
      c.moveTo(x + s / 2, y + s * 0.08); c.lineTo(x + s * 0.9, y + s * 0.85); c.lineTo(x + s * 0.1, y + s * 0.85);
      c.closePath(); c.fill();
    }
  }
  function penMark(c, x, y, s, colour, edges) {  // edges: [top, right, bottom, left] on the pen's border
    c.fillStyle = colour; c.globalAlpha = 0.3; c.fillRect(x, y, s, s); c.globalAlpha = 1;
    var w = Math.max(2, Math.round(s / 6));
    c.fillStyle = colour;
    if (edges[0]) c.fillRect(x, y, s, w);
    if (edges[1]) c.fillRect(x + s - w, y, w, s);
    if (edges[2]) c.fillRect(x, y + s - w, s, w);
    if (edges[3]) c.fillRect(x, y, w, s);
  }
  function sheepMark(c, x, y, s, state) {
    c.beginPath(); c.arc(x + s / 2, y + s / 2, s * 0.36, 0, 7);
    c.fillStyle = state === 'panic' ? T.scared : '#ffffff'; c.fill();
    c.strokeStyle = state === 'panic' ? '#7a3d00' : '#444'; c.lineWidth = state === 'panic' ? Math.max(2, s / 8) : 1;
    c.setLineDash(state === 'move' ? [2, 2] : []); c.stroke(); c.setLineDash([]);
  }
  function dogMark(c, x, y, s, colour, action) {
    c.beginPath(); c.rect(x + s * 0.15, y + s * 0.15, s * 0.7, s * 0.7);
    ArbiterView.outlined(c, colour, Math.max(1, s / 12));
    if (action !== 'panic' && action !== 'indignant') return;
    c.strokeStyle = '#000'; c.lineWidth = Math.max(2, s / 8);
    c.setLineDash(action === 'panic' ? [] : [3, 2]);
    c.beginPath(); c.arc(x + s / 2, y + s / 2, s * 0.62, 0, 7); c.stroke(); c.setLineDash([]);
    if (s < 12) return;
    c.fillStyle = ArbiterView.contrast(colour); c.font = 'bold ' + Math.floor(s / 2) + 'px sans-serif';
    c.textAlign = 'center'; c.textBaseline = 'middle';
    c.fillText(action === 'panic' ? 'P' : 'I', x + s / 2, y + s / 2 + 1);
  }
  function barkMark(c, x, y, s) {
    c.strokeStyle = '#111'; c.lineWidth = 2; c.setLineDash([4, 3]);
    c.beginPath(); c.arc(x + s / 2, y + s / 2, s * 1.2, 0, 7); c.stroke(); c.setLineDash([]);
  }
  var sample = seats[0] ? seats[0].colour : '#e6194b';
  function on(mark) { return function (c, s) { groundMark(c, 0, 0, s, '.'); mark(c, s); }; }
  var legend = [{ label: 'grass', colour: T.grass },
    { label: 'fence', mark: function (c, s) { groundMark(c, 0, 0, s, '#'); } },
    { label: 'tree', mark: function (c, s) { groundMark(c, 0, 0, s, '^'); } }];
  seats.forEach(function (st, k) {
    legend.push({ label: st.name + '\'s pen', mark: on(function (c, s) { penMark(c, 0, 0, s, st.colour, [1, 1, 1, 1]); }) });
  });
  ArbiterView.legend(legend.concat([
    { label: 'sheep', mark: on(function (c, s) { sheepMark(c, 0, 0, s, 'standBy'); }) },
    { label: 'sheep walking', mark: on(function (c, s) { sheepMark(c, 0, 0, s, 'move'); }) },
    { label: 'scared sheep', mark: on(function (c, s) { sheepMark(c, 0, 0, s, 'panic'); }) },
    { label: 'dog (owner\'s colour)', mark: on(function (c, s) { dogMark(c, 0, 0, s, sample); }) },
    { label: 'panicked dog (P)', mark: on(function (c, s) { dogMark(c, 2, 2, s - 4, sample, 'panic'); }) },
    { label: 'indignant dog (I)', mark: on(function (c, s) { dogMark(c, 2, 2, s - 4, sample, 'indignant'); }) },
    { label: 'bark', mark: on(function (c, s) { barkMark(c, s * 0.3, s * 0.3, s * 0.4); }) }
  ]));

  function drawGround(cs) {
    for (var r = 0; r < rows; r++)
      for (var c = 0; c < cols; c++) {
        groundMark(ctx, c * cs, r * cs, cs, landscape[r][c]);
        var pen = penOf(r, c);
        if (pen < 0 || !seats[pen]) continue;
        var edges = [penOf(r - 1, c) !== pen, penOf(r, c + 1) !== pen, penOf(r + 1, c) !== pen, penOf(r, c - 1) !== pen];
        penMark(ctx, c * cs, r * cs, cs, seats[pen].colour, edges);
      }
  }
  function draw(i) {
    var t = turns[Math.min(i, turns.length - 1)];
    var cs = zoom.begin();
    drawGround(cs);
    Object.keys(t.sheep).forEach(function (k) {
      var s = t.sheep[k];
      sheepMark(ctx, s.x * cs, s.y * cs, cs, s.action);
    });
    t.barks.forEach(function (b) { barkMark(ctx, b.x * cs, b.y * cs, cs); });
    Object.keys(t.dogs).forEach(function (id) {
      var d = t.dogs[id], seat = seats[d.owner - 1];
      dogMark(ctx, d.x * cs, d.y * cs, cs, seat ? seat.colour : '#000', d.action);
    });
    var inPens = penCount[Math.min(i, turns.length - 1)];
    var text = ['sheep seen in pens: ' + seats.map(function (s, k) { return s.name + ' ' + inPens[k]; }).join(', ')];
    text = text.concat(t.events.map(function (e) {  // events by seat name, P<n> where there is none
      var who = seats[e.player - 1] ? seats[e.player - 1].name : 'P' + e.player;
      return e.to ? 'to ' + who + ': ' + e.text : who + "'s" + e.text;
    }));
    if (i >= turns.length) text = text.concat(notes.filter(function (n) { return /score|Count/.test(n); }));
    info.textContent = text.join('\n');
  }
  function scores(i) {
    if (i < turns.length) return seats.map(function () { return null; });  // not on the wire
    return seats.map(function (s, k) {
      if (finals[k] !== undefined) return finals[k];
      return s.score !== null && s.score !== undefined ? s.score : 0;
    });
  }
  return {
    seats: seats, frames: frames, draw: draw, scores: scores, faults: faults,
    charts: [{ title: 'Sheep seen in each pen (scores are not on the wire)',
               values: function (i) { return penCount[Math.min(i, turns.length - 1)]; } }],
    label: function (i) { return i < turns.length ? 'turn ' + turns[i].turn : 'final scores'; }
  };
};
