// SamurAI Dig Here: the field with known and hidden gold, holes, samurai and dogs step by step,
// both games of the match (positions swapped in the second). The field after each step comes
// from the arbiter's engine fed the logged plans; scores are gold over both games.
'use strict';
ArbiterView.renderers.samurai = function (data, board) {
  var el = ArbiterView.el;
  var games = data.replay.games;
  var seats = ArbiterView.seatsOf(data, ['team 0 in game 1', 'team 1 in game 1']);
  var frames = [];
  games.forEach(function (g, gi) { g.states.forEach(function (s, si) { frames.push({ game: gi, step: si }); }); });
  var firstFinal = games[0].states[games[0].states.length - 1].scores;
  // The bot playing team `team` in game `game`: the first bot is team 0 in game 1, team 1 in game 2.
  function botOf(game, team) { return game === 0 ? team : 1 - team; }

  var size = games[0].size;
  var cs = Math.max(16, Math.min(48, Math.floor(600 / size)));
  var canvas = el('canvas', { width: size * cs, height: size * cs, id: 'samurai-field' });
  board.appendChild(canvas);
  var info = el('div', { 'class': 'events' });
  board.appendChild(info);
  var ctx = canvas.getContext('2d');
  var actionNames = function (a) {
    if (a === -1 || a === undefined) return 'stay';
    var dirs = ['S', 'SW', 'W', 'NW', 'N', 'NE', 'E', 'SE'];
    return (a < 8 ? 'move ' : a < 16 ? 'dig ' : 'plug ') + dirs[a % 8];
  };

  function draw(i) {
    var f = frames[i], g = games[f.game], s = g.states[f.step];
    var n = g.size;
    if (canvas.width !== n * cs) { canvas.width = n * cs; canvas.height = n * cs; }
    ctx.fillStyle = '#c8b58a'; ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.strokeStyle = '#a8956a'; ctx.lineWidth = 1;
    for (var k = 0; k <= n; k++) {
      ctx.beginPath(); ctx.moveTo(k * cs, 0); ctx.lineTo(k * cs, n * cs); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(0, k * cs); ctx.lineTo(n * cs, k * cs); ctx.stroke();
    }
    // x is the first coordinate (columns), y the second (rows).
    s.holes.forEach(function (h) {
      ctx.fillStyle = '#4e342e'; ctx.beginPath();
      ctx.arc(h[0] * cs + cs / 2, h[1] * cs + cs / 2, cs * 0.38, 0, 7); ctx.fill();
    });
    ctx.font = Math.floor(cs / 3) + 'px sans-serif'; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    function gold(list, hidden) {
      list.forEach(function (gd) {
        ctx.fillStyle = hidden ? 'rgba(255,193,7,0.35)' : '#ffc107';
        ctx.fillRect(gd[0] * cs + 3, gd[1] * cs + 3, cs - 6, cs - 6);
        ctx.fillStyle = '#3e2723';
        ctx.fillText(String(gd[2]), gd[0] * cs + cs / 2, gd[1] * cs + cs / 2);
      });
    }
    gold(s.known, false);
    gold(s.hidden, true);
    s.agents.forEach(function (a, id) {
      var team = id % 2, bot = botOf(f.game, team);
      var x = a[0] * cs + cs / 2, y = a[1] * cs + cs / 2;
      ctx.fillStyle = seats[bot].colour;
      ctx.beginPath();
      if (id < 2) ctx.arc(x, y, cs * 0.34, 0, 7);
      else ctx.rect(x - cs * 0.28, y - cs * 0.28, cs * 0.56, cs * 0.56);
      ctx.fill();
      ctx.fillStyle = '#fff';
      ctx.fillText(id < 2 ? 'S' : 'D', x, y);
    });
    var play = f.step > 0 ? g.plays[f.step - 1] : null;
    var lines = ['game ' + (f.game + 1) + ': ' + seats[botOf(f.game, 0)].name + ' plays team 0 (agents 0, 2), ' +
      seats[botOf(f.game, 1)].name + ' team 1 (agents 1, 3); gold this game ' + s.scores.join(' : ')];
    if (play) {
      lines.push('actions: ' + s.actions.map(function (a, id) { return (id < 2 ? 'samurai ' : 'dog ') + (id % 2) + ' ' + actionNames(a); }).join(', '));
      if (play.timeLeft) lines.push('time left (ms): ' + play.timeLeft.join(', '));
    }
    info.textContent = lines.join('\n');
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
  return {
    seats: seats, frames: frames.length, draw: draw, scores: scores,
    label: function (i) { return 'game ' + (frames[i].game + 1) + ', step ' + frames[i].step; }
  };
};
