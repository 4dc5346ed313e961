// tic-tac-toe: the board after each move (a test's toy game; its renderer comes with its
// descriptor like every game's).
'use strict';
ArbiterView.renderers.tictactoe = function (data, board) {
  var el = ArbiterView.el;
  var moves = data.replay.moves;
  var seats = ArbiterView.seatsOf(data, ['x', 'o']);
  var grid = el('div', { 'class': 'tictactoe-board' });
  grid.style.cssText = 'display:grid;grid-template-columns:repeat(3,80px);gap:2px';
  board.appendChild(grid);
  function draw(frame) {
    grid.innerHTML = '';
    for (var c = 0; c < 9; c++) {
      var at = moves.slice(0, frame).indexOf(c);
      var cell = el('div', { 'class': 'tictactoe-cell' }, at < 0 ? '' : (at % 2 === 0 ? 'x' : 'o'));
      cell.style.cssText = 'height:80px;font-size:48px;text-align:center;line-height:80px;background:#eee;color:' +
        (at < 0 ? '#000' : seats[at % 2].colour);
      grid.appendChild(cell);
    }
  }
  function scores(frame) {
    var won = frame === moves.length && data.replay.winner !== null ? data.replay.winner : -1;
    return [won === 0 ? 1 : 0, won === 1 ? 1 : 0];
  }
  return {
    seats: seats, frames: moves.length + 1, draw: draw, scores: scores, faults: [],
    label: function (i) { return i === 0 ? 'start' : 'move ' + i; }
  };
};
