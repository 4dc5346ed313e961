// Ants: the map, ants, hills, food, razed hills and deaths turn by turn, from the original
// engine's replay (replaydata revision 3: ants live from their start turn to their end turn and
// move by one order letter a turn), with a fog toggle showing what one player saw.
'use strict';
ArbiterView.terrain = ArbiterView.terrain || {};
// Muted ground, so that the saturated seat colours stand out on it.
ArbiterView.terrain.ants = { land: '#8a8272', water: '#2c3e50', food: '#f4f1e8', razed: '#3a3a3a' };

ArbiterView.renderers.ants = function (data, board, controls) {
  var el = ArbiterView.el;
  var T = ArbiterView.terrain.ants;
  var replay = data.replay;
  var rd = replay.replaydata;
  var rows = rd.map.rows, cols = rd.map.cols;
  var players = rd.players;
  var length = replay.game_length !== undefined ? replay.game_length : rd.scores[0].length - 1;
  var names = replay.playernames || [];
  var fallback = [];
  for (var p = 0; p < players; p++) fallback.push(names[p] || 'player ' + (p + 1));
  var seats = ArbiterView.seatsOf(data, fallback);
  // Turns 0..length, then the final scores (with the end bonus); a match still playing (data.live,
  // arbiter serve) has no final scores yet.
  var frames = length + (data.live ? 1 : 2);
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
  var zoom = ArbiterView.zoomable(board, controls, { id: 'ants-map', cols: cols, rows: rows, minCell: 2, maxCell: 24 });
  var ctx = zoom.ctx, cs = 1;

  var fog = -1;
  var select = el('select', { id: 'fog', title: 'darken what a player did not see' });
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
  function colourOf(owner) { return seats[owner] ? seats[owner].colour : '#000'; }

  // The marks, drawn at (x, y) (top-left of a cell) with cell size s: the board and the legend share them.
  function antMark(c, x, y, s, colour) {
    c.beginPath(); c.arc(x + s / 2, y + s / 2, s * 0.42, 0, 7);
    ArbiterView.outlined(c, colour, Math.max(1, s / 8));
  }
  function foodMark(c, x, y, s) {
    c.fillStyle = T.food; c.fillRect(x + s * 0.2, y + s * 0.2, s * 0.6, s * 0.6);
    c.strokeStyle = '#222'; c.lineWidth = 1; c.strokeRect(x + s * 0.2, y + s * 0.2, s * 0.6, s * 0.6);
  }
  function hillMark(c, x, y, s, colour, razed) {  // a ring 2 cells wide around the hill's cell
    var w = Math.max(2, s / 3);
    c.lineWidth = w + 2; c.strokeStyle = '#111';
    c.strokeRect(x - s / 2, y - s / 2, s * 2, s * 2);
    c.lineWidth = w; c.strokeStyle = razed ? T.razed : colour;
    c.strokeRect(x - s / 2, y - s / 2, s * 2, s * 2);
    if (!razed) return;
    c.strokeStyle = colour; c.lineWidth = Math.max(1, s / 4);
    c.beginPath();
    c.moveTo(x - s / 2, y - s / 2); c.lineTo(x + 1.5 * s, y + 1.5 * s);
    c.moveTo(x + 1.5 * s, y - s / 2); c.lineTo(x - s / 2, y + 1.5 * s);
    c.stroke();
  }
  function deadMark(c, x, y, s, colour) {
    c.lineCap = 'round';
    [['#111', Math.max(2, s / 3)], [colour, Math.max(1, s / 5)]].forEach(function (pen) {
      c.strokeStyle = pen[0]; c.lineWidth = pen[1];
      c.beginPath();
      c.moveTo(x + s * 0.1, y + s * 0.1); c.lineTo(x + s * 0.9, y + s * 0.9);
      c.moveTo(x + s * 0.9, y + s * 0.1); c.lineTo(x + s * 0.1, y + s * 0.9);
      c.stroke();
    });
    c.lineCap = 'butt';
  }
  var sample = seats[0] ? seats[0].colour : '#e6194b';
  ArbiterView.legend([
    { label: 'land', colour: T.land },
    { label: 'water', colour: T.water },
    { label: 'food', mark: function (c, s) { c.fillStyle = T.land; c.fillRect(0, 0, s, s); foodMark(c, 0, 0, s); } },
    { label: 'ant (seat colour)', mark: function (c, s) { c.fillStyle = T.land; c.fillRect(0, 0, s, s); antMark(c, 1, 1, s - 2, sample); } },
    { label: 'hill', mark: function (c, s) { c.fillStyle = T.land; c.fillRect(0, 0, s, s); hillMark(c, s / 4, s / 4, s / 2, sample, false); } },
    { label: 'razed hill', mark: function (c, s) { c.fillStyle = T.land; c.fillRect(0, 0, s, s); hillMark(c, s / 4, s / 4, s / 2, sample, true); } },
    { label: 'ant died this turn', mark: function (c, s) { c.fillStyle = T.land; c.fillRect(0, 0, s, s); deadMark(c, 1, 1, s - 2, sample); } },
    { label: 'fog (not seen by the player chosen)', mark: function (c, s) {
      c.fillStyle = T.land; c.fillRect(0, 0, s, s); c.fillStyle = 'rgba(0,0,0,0.6)'; c.fillRect(0, 0, s, s); } }
  ]);

  // An image of one pixel a cell, scaled to the cell size without smoothing: crisp, no seams.
  function cellImage(colourOf) {
    var image = document.createElement('canvas');
    image.width = cols; image.height = rows;
    var c = image.getContext('2d'), pixels = c.createImageData(cols, rows);
    for (var i = 0; i < rows * cols; i++) {
      var rgba = colourOf(Math.floor(i / cols), i % cols);
      for (var k = 0; k < 4; k++) pixels.data[i * 4 + k] = rgba[k];
    }
    c.putImageData(pixels, 0, 0);
    return image;
  }
  function rgba(hex, alpha) { var n = parseInt(hex.slice(1), 16); return [n >> 16, (n >> 8) & 255, n & 255, alpha]; }
  var ground = cellImage(function (r, c) { return rgba(water[r] && water[r][c] === '%' ? T.water : T.land, 255); });
  function drawGround() { ctx.drawImage(ground, 0, 0, cols * cs, rows * cs); }
  function drawFog(seen) {
    ctx.drawImage(cellImage(function (r, c) { return seen[r * cols + c] ? [0, 0, 0, 0] : [0, 0, 0, 153]; }),
                  0, 0, cols * cs, rows * cs);
  }
  function draw(frame) {
    var t = turnOf(frame);
    cs = zoom.begin();
    drawGround();
    rd.food.forEach(function (f) { if (f[2] <= t && t < f[3]) foodMark(ctx, f[1] * cs, f[0] * cs, cs); });
    rd.hills.forEach(function (h) { hillMark(ctx, h[1] * cs, h[0] * cs, cs, colourOf(h[2]), h[3] <= t); });
    var counts = seats.map(function () { return 0; }), deaths = 0;
    ants.forEach(function (a) {
      if (t >= a.start && t < a.end) {
        var at = a.path[Math.min(t - a.start, a.path.length - 1)];
        antMark(ctx, at[1] * cs, at[0] * cs, cs, colourOf(a.owner));
        counts[a.owner]++;
      } else if (t === a.end && a.end <= length) {  // died this turn: in battle or on a hill
        var last = a.path[a.path.length - 1];
        deadMark(ctx, last[1] * cs, last[0] * cs, cs, colourOf(a.owner));
        deaths++;
      }
    });
    if (fog >= 0) drawFog(visibleTo(fog, t));
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
      // playerturns: the turn whose request the bot failed (or that eliminated it); frame t
      // draws the map after turn t, so the status holds from that turn's frame.
      return t >= (playerturns[p] || 0) ? st : 'alive';
    });
  }
  var faults = [];
  status.forEach(function (st, p) {
    if (['crashed', 'timeout', 'invalid', 'error'].indexOf(st) >= 0 && p < seats.length)
      faults.push({ frame: Math.min(frames - 1, playerturns[p] || 0), seat: p, text: st });
  });
  var alive = [];  // ants alive per turn and player
  for (var t = 0; t <= length; t++) alive.push(seats.map(function () { return 0; }));
  ants.forEach(function (a) {
    for (var k = Math.max(0, a.start); k < Math.min(a.end, length + 1); k++) if (alive[k][a.owner] !== undefined) alive[k][a.owner]++;
  });
  // Score and ants alive per turn; the ants first where the score does not move before the end.
  function charts() {
    var list = [{ title: 'Score over the match', values: scores },
                { title: 'Ants alive', values: function (f) { return alive[turnOf(f)]; } }];
    var first = JSON.stringify(scores(0));
    for (var f = 1; f <= length; f++) if (JSON.stringify(scores(f)) !== first) return list;
    return list.reverse();
  }
  var view = {
    seats: seats, frames: frames, draw: draw, scores: scores, status: statusAt, faults: faults,
    charts: charts(),
    label: function (f) { return f > length ? 'final scores (end bonus ' + JSON.stringify(rd.bonus || []) + ')' : 'turn ' + f; }
  };
  return view;
};
