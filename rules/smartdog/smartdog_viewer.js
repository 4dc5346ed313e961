// smart-dog: the torus grid with pens, fences and trees, dogs, sheep, barks and scared sheep,
// turn by turn, from the wire transcript (ours or the original server's). The transcript holds
// what each player was sent, so the board shows the union of what the players saw; scores are
// not on the wire and appear at the end, from the transcript's final lines or the record.
'use strict';
ArbiterView.renderers.smartdog = function (data, board) {
  var el = ArbiterView.el;
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
      current.events.push('P' + player + ' dog ' + m[1] + ' barks');
    } else if (current && sent && /^(warning|error) /.test(text)) {
      current.events.push('to P' + player + ': ' + text);
    }
  });
  if (!landscape) throw new Error('the transcript has no landscape line');
  if (!turns.length) turns.push({ turn: 0, dogs: {}, sheep: {}, barks: [], events: [] });
  var fallback = [];
  for (var p = 0; p < players; p++) fallback.push('P' + (p + 1));
  var seats = ArbiterView.seatsOf(data, fallback);
  var rows = landscape.length, cols = landscape[0].length;
  var cs = Math.max(6, Math.min(26, Math.floor(780 / cols), Math.floor(600 / rows)));
  var canvas = el('canvas', { width: cols * cs, height: rows * cs, id: 'smartdog-board' });
  board.appendChild(canvas);
  var info = el('div', { 'class': 'events' });
  board.appendChild(info);
  var ctx = canvas.getContext('2d');
  var frames = turns.length + 1;  // every turn, then the final scores

  function tint(colour) { return colour + '55'; }
  function draw(i) {
    var t = turns[Math.min(i, turns.length - 1)];
    for (var r = 0; r < rows; r++)
      for (var c = 0; c < cols; c++) {
        var ch = landscape[r][c];
        ctx.fillStyle = ch === '#' ? '#6d4c41' : ch === '^' ? '#1b5e20' : '#a5d6a7';
        ctx.fillRect(c * cs, r * cs, cs, cs);
        if (ch >= '1' && ch <= '9' && seats[Number(ch) - 1]) {
          ctx.fillStyle = tint(seats[Number(ch) - 1].colour);
          ctx.fillRect(c * cs, r * cs, cs, cs);
        }
      }
    var inPens = seats.map(function () { return 0; });
    Object.keys(t.sheep).forEach(function (k) {
      var s = t.sheep[k];
      var scared = s.action === 'panic' || s.action === 'move';
      ctx.fillStyle = scared ? '#fff59d' : '#fafafa';
      ctx.strokeStyle = scared ? '#f57f17' : '#616161';
      ctx.lineWidth = scared ? 2 : 1;
      ctx.beginPath(); ctx.arc(s.x * cs + cs / 2, s.y * cs + cs / 2, cs * 0.38, 0, 7); ctx.fill(); ctx.stroke();
      var ch = landscape[s.y] && landscape[s.y][s.x];
      if (ch >= '1' && ch <= '9') inPens[Number(ch) - 1]++;
    });
    t.barks.forEach(function (b) {
      ctx.strokeStyle = 'rgba(211,47,47,0.8)'; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.arc(b.x * cs + cs / 2, b.y * cs + cs / 2, cs * 1.2, 0, 7); ctx.stroke();
    });
    Object.keys(t.dogs).forEach(function (id) {
      var d = t.dogs[id], seat = seats[d.owner - 1];
      ctx.fillStyle = seat ? seat.colour : '#000';
      ctx.fillRect(d.x * cs + cs * 0.15, d.y * cs + cs * 0.15, cs * 0.7, cs * 0.7);
      if (d.action === 'panic' || d.action === 'indignant') {
        ctx.strokeStyle = d.action === 'panic' ? '#000' : '#fff'; ctx.lineWidth = 2;
        ctx.strokeRect(d.x * cs + cs * 0.15, d.y * cs + cs * 0.15, cs * 0.7, cs * 0.7);
      }
    });
    var text = ['sheep seen in pens: ' + seats.map(function (s, k) { return s.name + ' ' + inPens[k]; }).join(', ')];
    text = text.concat(t.events);
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
    label: function (i) { return i < turns.length ? 'turn ' + turns[i].turn : 'final scores'; }
  };
};
