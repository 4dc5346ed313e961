// Ants: the map, ants, hills, food, razed hills and deaths turn by turn, from the original
// engine's replay (replaydata revision 3: ants live from their start turn to their end turn and
// move by one order letter a turn), with a fog toggle showing what one player saw.
'use strict';
ArbiterView.renderers.ants = function (data, board, controls) {
  var el = ArbiterView.el;
  var replay = data.replay;
  var rd = replay.replaydata;
  var rows = rd.map.rows, cols = rd.map.cols;
  var players = rd.players;
  var length = replay.game_length !== undefined ? replay.game_length : rd.scores[0].length - 1;
  var names = replay.playernames || [];
  var fallback = [];
  for (var p = 0; p < players; p++) fallback.push(names[p] || 'player ' + (p + 1));
  var seats = ArbiterView.seatsOf(data, fallback);
  var frames = length + 2;  // turns 0..length, then the final scores (with the end bonus)
  var step = { n: [-1, 0], s: [1, 0], e: [0, 1], w: [0, -1] };

  // Every ant's cell at each turn of its life (and where it died).
  var ants = rd.ants.map(function (a) {
    var r = a[0], c = a[1], path = [[r, c]];
    var orders = String(a[5] || '');
    for (var i = 0; i < orders.length; i++) {
      var d = step[orders[i]];
      if (d) { r = (r + d[0] + rows) % rows; c = (c + d[1] + cols) % cols; }
      path.push([r, c]);
    }
    return { start: a[2], end: a[3], owner: a[4], path: path };
  });
  var water = rd.map.data.map(function (line) { return String(line); });
  var cs = Math.max(2, Math.min(12, Math.floor(760 / cols), Math.floor(620 / rows)));
  var canvas = el('canvas', { width: cols * cs, height: rows * cs, id: 'ants-map' });
  board.appendChild(canvas);
  var ctx = canvas.getContext('2d');

  var fog = -1;
  var select = el('select', { id: 'fog' });
  select.appendChild(el('option', { value: '-1' }, 'fog: off'));
  seats.forEach(function (s, i) { select.appendChild(el('option', { value: String(i) }, 'what ' + s.name + ' saw')); });
  select.addEventListener('change', function () { fog = Number(select.value); view.redraw(); });
  controls.appendChild(select);
  var info = el('div', { 'class': 'events' });
  board.appendChild(info);

  function turnOf(frame) { return Math.min(frame, length); }
  function visibleTo(p, t) {
    var seen = new Uint8Array(rows * cols);
    var r2 = rd.viewradius2, rad = Math.floor(Math.sqrt(r2));
    ants.forEach(function (a) {
      if (a.owner !== p || t < a.start || t >= a.end) return;
      var at = a.path[Math.min(t - a.start, a.path.length - 1)];
      for (var dr = -rad; dr <= rad; dr++)
        for (var dc = -rad; dc <= rad; dc++)
          if (dr * dr + dc * dc <= r2) seen[((at[0] + dr + rows) % rows) * cols + (at[1] + dc + cols) % cols] = 1;
    });
    return seen;
  }
  function cell(r, c, colour) { ctx.fillStyle = colour; ctx.fillRect(c * cs, r * cs, cs, cs); }

  function draw(frame) {
    var t = turnOf(frame);
    ctx.fillStyle = '#8d7b5a';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    for (var r = 0; r < rows; r++)
      for (var c = 0; c < cols; c++) if (water[r] && water[r][c] === '%') cell(r, c, '#1d3f73');
    rd.food.forEach(function (f) { if (f[2] <= t && t < f[3]) cell(f[0], f[1], '#f5f5dc'); });
    rd.hills.forEach(function (h) {
      ctx.strokeStyle = seats[h[2]] ? seats[h[2]].colour : '#000';
      ctx.lineWidth = Math.max(1, cs / 4);
      ctx.strokeRect(h[1] * cs - cs / 2, h[0] * cs - cs / 2, cs * 2, cs * 2);
      if (h[3] <= t) {  // razed
        ctx.beginPath();
        ctx.moveTo(h[1] * cs - cs / 2, h[0] * cs - cs / 2); ctx.lineTo(h[1] * cs + 1.5 * cs, h[0] * cs + 1.5 * cs);
        ctx.moveTo(h[1] * cs + 1.5 * cs, h[0] * cs - cs / 2); ctx.lineTo(h[1] * cs - cs / 2, h[0] * cs + 1.5 * cs);
        ctx.stroke();
      }
    });
    var counts = seats.map(function () { return 0; }), deaths = 0;
    ants.forEach(function (a) {
      var colour = seats[a.owner] ? seats[a.owner].colour : '#000';
      if (t >= a.start && t < a.end) {
        var at = a.path[Math.min(t - a.start, a.path.length - 1)];
        ctx.fillStyle = colour;
        ctx.beginPath(); ctx.arc(at[1] * cs + cs / 2, at[0] * cs + cs / 2, cs * 0.45, 0, 7); ctx.fill();
        counts[a.owner]++;
      } else if (t === a.end && a.end <= length) {  // died this turn: in battle or on a hill
        var last = a.path[a.path.length - 1];
        ctx.strokeStyle = colour; ctx.lineWidth = Math.max(1, cs / 5);
        ctx.beginPath();
        ctx.moveTo(last[1] * cs, last[0] * cs); ctx.lineTo(last[1] * cs + cs, last[0] * cs + cs);
        ctx.moveTo(last[1] * cs + cs, last[0] * cs); ctx.lineTo(last[1] * cs, last[0] * cs + cs);
        ctx.stroke();
        deaths++;
      }
    });
    if (fog >= 0) {
      var seen = visibleTo(fog, t);
      ctx.fillStyle = 'rgba(0,0,0,0.6)';
      for (var i = 0; i < rows * cols; i++) if (!seen[i]) ctx.fillRect((i % cols) * cs, Math.floor(i / cols) * cs, cs, cs);
    }
    info.textContent = 'ants: ' + seats.map(function (s, i) { return s.name + ' ' + counts[i]; }).join(', ') +
      (deaths ? '; ' + deaths + ' died this turn' : '');
  }

  function scores(frame) {
    if (frame > length && Array.isArray(replay.score)) return replay.score.slice(0, seats.length);
    var t = turnOf(frame);
    return rd.scores.map(function (s) { return s.length ? s[Math.min(t, s.length - 1)] : 0; });
  }
  var playerturns = replay.playerturns || [];
  var status = replay.status || [];
  function statusAt(frame) {
    var t = turnOf(frame);
    return seats.map(function (s, p) {
      var st = status[p];
      if (!st || st === 'survived') return frame > length ? (st || '') : 'alive';
      return t > (playerturns[p] || 0) ? st : 'alive';
    });
  }
  var faults = [];
  status.forEach(function (st, p) {
    if (['crashed', 'timeout', 'invalid', 'error'].indexOf(st) >= 0 && p < seats.length)
      faults.push({ frame: Math.min(frames - 1, (playerturns[p] || 0) + 1), seat: p, text: st });
  });
  var view = {
    seats: seats, frames: frames, draw: draw, scores: scores, status: statusAt, faults: faults,
    label: function (f) { return f > length ? 'final scores (end bonus ' + JSON.stringify(rd.bonus || []) + ')' : 'turn ' + f; }
  };
  return view;
};
