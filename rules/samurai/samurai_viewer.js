// SamurAI Dig Here: the field with known and hidden gold, holes, samurai and dogs step by step,
// both games of the match (positions swapped in the second). The field after each step comes
// from the arbiter's engine fed the logged plans; scores are gold over both games.
'use strict';
ArbiterView.terrain = ArbiterView.terrain || {};
ArbiterView.terrain.samurai = { field: '#d8cfb8', grid: '#b9ae95', gold: '#f2c200', hole: '#4a3b30' };

ArbiterView.renderers.samurai = function (data, board, controls) {
  var el = ArbiterView.el;
  var T = ArbiterView.terrain.samurai;
  var games = data.replay.games;
  var seats = ArbiterView.seatsOf(data, ['player A', 'player B']);
  var frames = [];
  games.forEach(function (g, gi) { g.states.forEach(function (s, si) { frames.push({ game: gi, step: si }); }); });
  var firstFinal = games[0].states[games[0].states.length - 1].scores;
  // The bot playing team `team` in game `game`: the first bot is team 0 in game 1, team 1 in game 2.
  function botOf(game, team) { return game === 0 ? team : 1 - team; }

  var size = games[0].size;
  var zoom = ArbiterView.zoomable(board, controls, { id: 'samurai-field', cols: size, rows: size, minCell: 16, maxCell: 96 });
  var info = el('div', { 'class': 'events' });
  board.appendChild(info);
  var ctx = zoom.ctx;
  var actionNames = function (a) {
    if (a === -1 || a === undefined) return 'stay';
    var dirs = ['S', 'SW', 'W', 'NW', 'N', 'NE', 'E', 'SE'];
    return (a < 8 ? 'move ' : a < 16 ? 'dig ' : 'plug ') + dirs[a % 8];
  };

  // The marks at cell (x, y) with cell size s: the field and the legend share them.
  function holeMark(c, x, y, s) {
    c.fillStyle = T.hole; c.beginPath(); c.arc(x + s / 2, y + s / 2, s * 0.38, 0, 7); c.fill();
  }
  function goldMark(c, x, y, s, amount, hidden) {
    c.fillStyle = T.gold;
    c.globalAlpha = hidden ? 0.35 : 1;
    c.fillRect(x + s * 0.1, y + s * 0.1, s * 0.8, s * 0.8);
    c.globalAlpha = 1;
    c.strokeStyle = '#6b5200'; c.lineWidth = 1;
    if (hidden) c.setLineDash([3, 2]);
    c.strokeRect(x + s * 0.1 + 0.5, y + s * 0.1 + 0.5, s * 0.8 - 1, s * 0.8 - 1);
    c.setLineDash([]);
    if (amount === undefined) return;
    c.fillStyle = '#2b2100'; c.font = Math.floor(s / 3) + 'px sans-serif';
    c.textAlign = 'center'; c.textBaseline = 'middle';
    c.fillText(String(amount), x + s / 2, y + s / 2);
  }
  function agentMark(c, x, y, s, colour, samurai) {
    var cx = x + s / 2, cy = y + s / 2;
    c.beginPath();
    if (samurai) c.arc(cx, cy, s * 0.36, 0, 7);
    else c.rect(cx - s * 0.3, cy - s * 0.3, s * 0.6, s * 0.6);
    ArbiterView.outlined(c, colour, Math.max(1, s / 16));
    if (s < 14) return;
    c.fillStyle = ArbiterView.contrast(colour); c.font = 'bold ' + Math.floor(s / 3) + 'px sans-serif';
    c.textAlign = 'center'; c.textBaseline = 'middle';
    c.fillText(samurai ? 'S' : 'D', cx, cy);
  }
  function onField(mark) {
    return function (c, s) { c.fillStyle = T.field; c.fillRect(0, 0, s, s); mark(c, s); };
  }
  var sample = seats[0].colour;
  ArbiterView.legend([
    { label: 'field', colour: T.field },
    { label: 'gold (amount)', mark: onField(function (c, s) { goldMark(c, 0, 0, s); }) },
    { label: 'hidden gold', mark: onField(function (c, s) { goldMark(c, 0, 0, s, undefined, true); }) },
    { label: 'hole', mark: onField(function (c, s) { holeMark(c, 0, 0, s); }) },
    { label: 'samurai S (seat colour)', mark: onField(function (c, s) { agentMark(c, 0, 0, s, sample, true); }) },
    { label: 'dog D', mark: onField(function (c, s) { agentMark(c, 0, 0, s, sample, false); }) }
  ]);

  function drawField(n, cs) {
    ctx.fillStyle = T.field; ctx.fillRect(0, 0, n * cs, n * cs);
    ctx.strokeStyle = T.grid; ctx.lineWidth = 1;
    for (var k = 0; k <= n; k++) {
      ctx.beginPath(); ctx.moveTo(k * cs + 0.5, 0); ctx.lineTo(k * cs + 0.5, n * cs); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(0, k * cs + 0.5); ctx.lineTo(n * cs, k * cs + 0.5); ctx.stroke();
    }
  }
  function draw(i) {
    var f = frames[i], g = games[f.game], s = g.states[f.step];
    var cs = zoom.begin();
    drawField(g.size, cs);
    // x is the first coordinate (columns), y the second (rows).
    s.holes.forEach(function (h) { holeMark(ctx, h[0] * cs, h[1] * cs, cs); });
    s.known.forEach(function (gd) { goldMark(ctx, gd[0] * cs, gd[1] * cs, cs, gd[2], false); });
    s.hidden.forEach(function (gd) { goldMark(ctx, gd[0] * cs, gd[1] * cs, cs, gd[2], true); });
    s.agents.forEach(function (a, id) {
      agentMark(ctx, a[0] * cs, a[1] * cs, cs, seats[botOf(f.game, id % 2)].colour, id < 2);
    });
    info.textContent = summary(f, g, s).join('\n');
  }
  function summary(f, g, s) {
    var lines = ['game ' + (f.game + 1) + ': ' + seats[botOf(f.game, 0)].name + ' plays team 0 (samurai 0, dog 2), ' +
      seats[botOf(f.game, 1)].name + ' plays team 1 (samurai 1, dog 3); gold this game ' + s.scores.join(' : ')];
    var play = f.step > 0 ? g.plays[f.step - 1] : null;
    if (play) {
      lines.push('actions: ' + s.actions.map(function (a, id) {
        return (id < 2 ? 'samurai ' : 'dog ') + id + ' ' + actionNames(a);
      }).join(', '));
      if (play.timeLeft) lines.push('time left (ms): ' + play.timeLeft.join(', '));
    }
    return lines;
  }
  function scores(i) {
    var f = frames[i], s = games[f.game].states[f.step].scores;
    var out = [0, 0];
    for (var team = 0; team < 2; team++) {
      out[botOf(f.game, team)] += s[team];
      if (f.game === 1) out[botOf(0, team)] += firstFinal[team];
    }
    return out;
  }
  var breaks = [];
  for (var gi = 1; gi < games.length; gi++) {
    var at = 0;
    for (var k = 0; k < gi; k++) at += games[k].states.length;
    breaks.push({ frame: at, label: 'game ' + (gi + 1) });
  }
  return {
    seats: seats, frames: frames.length, draw: draw, scores: scores, breaks: breaks,
    label: function (i) { return 'game ' + (frames[i].game + 1) + ', step ' + frames[i].step; }
  };
};
