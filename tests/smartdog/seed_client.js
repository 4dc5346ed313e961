// A smart-dog client written from the contest's rules page alone (seed 004, section "API"), as a
// contestant without the starter kits would write it: it connects, sends `join <username>`,
// and every turn barks at sheep in range and walks its dogs toward the nearest sheep.
//   node seed_client.js -host HOST -port PORT -name NAME [-hub HUB]
'use strict';
const net = require('net');

const args = {};
for (let i = 2; i + 1 < process.argv.length; i += 2) args[process.argv[i].replace(/^-+/, '')] = process.argv[i + 1];

// "Структура": "key"="value" pairs separated by commas; the example on the page writes `:`
// instead of `=`, and leaves numbers unquoted. Both are read.
function parseStruct(text) {
  const out = {};
  const re = /"([^"]*)"\s*[:=]\s*("([^"]*)"|[^,]*)/g;
  let m;
  while ((m = re.exec(text)) !== null) out[m[1]] = m[3] !== undefined ? m[3] : m[2].trim();
  return out;
}
// "Массив строк": "row","row",...
function parseArray(text) {
  const out = [];
  const re = /"([^"]*)"/g;
  let m;
  while ((m = re.exec(text)) !== null) out.push(m[1]);
  return out;
}

const game = { land: [], objs: [] };
const wrap = (v, n) => ((v % n) + n) % n;
const delta = (from, to, n) => {
  const d = wrap(to - from, n);
  return d > n / 2 ? d - n : d;
};
const steps = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };

function decide() {
  const rows = Number(game.start.rows), cols = Number(game.start.cols);
  const you = String(game.start.you), barkR = Number(game.start.dogBarkingR);
  const dogs = game.objs.filter((o) => o.type === 'Dog' && String(o.owner) === you);
  const sheep = game.objs.filter((o) => o.type === 'Sheep');
  const taken = new Set(game.objs.filter((o) => o.type).map((o) => `${o.x},${o.y}`));
  const lines = [];
  for (const dog of dogs) {
    const x = Number(dog.x), y = Number(dog.y);
    let best = null, bestD = Infinity;
    for (const s of sheep) {
      const dx = delta(x, Number(s.x), cols), dy = delta(y, Number(s.y), rows);
      const d = dx * dx + dy * dy;
      if (d < bestD) { best = [dx, dy]; bestD = d; }
    }
    if (dog.action === 'panic') continue;  // a scared dog can neither move nor bark
    if (best && bestD <= barkR * barkR && dog.action !== 'indignant') lines.push(`do ${dog.id} bark`);
    const wanted = best
      ? (Math.abs(best[0]) > Math.abs(best[1]) ? (best[0] > 0 ? 'right' : 'left') : (best[1] > 0 ? 'down' : 'up'))
      : ['up', 'right', 'down', 'left'][Number(game.turn) % 4];
    for (const dir of [wanted, 'up', 'right', 'down', 'left']) {
      const nx = wrap(x + steps[dir][0], cols), ny = wrap(y + steps[dir][1], rows);
      const cell = game.land[ny][nx];
      if (cell === '#' || cell === '^' || taken.has(`${nx},${ny}`)) continue;
      lines.push(`do ${dog.id} move ${dir}`);
      taken.add(`${nx},${ny}`);
      break;
    }
  }
  lines.push('end');
  return lines;
}

const socket = net.connect(Number(args.port), args.host, () => {
  send(`join ${args.name}` + (args.hub ? ` ${args.hub}` : ''));
});
function send(line) {
  socket.write(line + '\n');
}
let buffered = '';
socket.on('data', (chunk) => {
  buffered += chunk.toString();
  let nl;
  while ((nl = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, nl).replace(/\r$/, '');
    buffered = buffered.slice(nl + 1);
    const space = line.indexOf(' ');
    const cmd = space < 0 ? line : line.slice(0, space);
    const arg = space < 0 ? '' : line.slice(space + 1).trim();
    if (cmd === 'start') game.start = parseStruct(arg);
    else if (cmd === 'landscape') game.land = parseArray(arg);
    else if (cmd === 'state') { game.turn = parseStruct(arg).turn; game.objs = []; }
    else if (cmd === 'obj') game.objs.push(parseStruct(arg));
    else if (cmd === 'turn') for (const l of decide()) send(l);
    else if (cmd === 'finished') socket.end();
    else if (cmd === 'error' || cmd === 'warning') console.error(line);
  }
});
socket.on('error', (e) => { console.error('seed_client: ' + e.message); process.exit(1); });
socket.on('close', () => process.exit(0));
