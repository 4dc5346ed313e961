// The viewer shell: reads the match data embedded in the page, asks the game's renderer for its
// frames, and drives them: play/pause, step, scrubber, speed, keys, the seats' scores and status
// over time, a score chart, the faults, the bots' exchanges per step, and the step in the address.
'use strict';
var ArbiterView = window.ArbiterView || (window.ArbiterView = { renderers: {} });

// Saturated seat colours; every game's terrain is kept muted so that no seat blends into it.
ArbiterView.colours = ['#e6194b', '#4363d8', '#f58231', '#911eb4', '#3cb44b', '#f032e6', '#42d4f4', '#ffe119',
                       '#000000', '#fabed4'];

ArbiterView.el = function (tag, attrs, text) {
  var e = document.createElement(tag);
  if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = String(text);
  return e;
};

// The seats as the record has them (name, status, time, exit, stderr), else as the replay names them.
ArbiterView.seatsOf = function (data, names) {
  var parts = data.record && Array.isArray(data.record.participants) ? data.record.participants : null;
  var count = parts ? parts.length : names.length;
  var seats = [];
  for (var i = 0; i < count; i++) {
    var p = parts ? parts[i] : {};
    seats.push({
      name: parts ? p.bot : names[i],
      colour: ArbiterView.colours[i % ArbiterView.colours.length],
      status: p.status || '',
      detail: p.detail || '',
      exitCode: p.exit_code,
      exitSignal: p.exit_signal,
      stderrTail: p.stderr_tail,
      score: parts ? p.score : null,
      time: p.usage ? p.usage.wall_used_s : null
    });
  }
  return seats;
};

// How a status reads: 'ok' (playing or finished), 'out' (lost by the game's rules), 'warn' or 'bad'.
ArbiterView.statusKind = function (status) {
  if (!status || ['ok', 'survived', 'alive', 'playing', 'finished'].indexOf(status) >= 0) return 'ok';
  if (['eliminated', 'out', 'lost'].indexOf(status) >= 0) return 'out';
  if (['timeout', 'killed', 'retired', 'disqualified'].indexOf(status) >= 0) return 'warn';
  return 'bad';
};

// The legend above the board: items {label, colour} or {label, mark(ctx, size)} or {label, node}.
ArbiterView.legend = function (items) {
  var box = document.getElementById('legend');
  box.textContent = '';
  box.appendChild(ArbiterView.el('span', { 'class': 'legend-title' }, 'Legend:'));
  items.forEach(function (item) {
    var entry = ArbiterView.el('span', { 'class': 'legend-item' });
    if (item.node) entry.appendChild(item.node);
    else {
      var c = ArbiterView.el('canvas', { width: 16, height: 16, 'class': 'legend-mark' });
      var ctx = c.getContext('2d');
      if (item.mark) item.mark(ctx, 16);
      else { ctx.fillStyle = item.colour; ctx.fillRect(0, 0, 16, 16); }
      entry.appendChild(c);
    }
    entry.appendChild(ArbiterView.el('span', null, item.label));
    box.appendChild(entry);
  });
};

// Fills `ctx` with the seat colour and draws a contrasting outline (seats are readable on any ground).
ArbiterView.outlined = function (ctx, colour, width) {
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.lineWidth = width || 1;
  ctx.strokeStyle = ArbiterView.contrast(colour);
  ctx.stroke();
};

// Black or white, whichever reads better on `colour` (#rrggbb).
ArbiterView.contrast = function (colour) {
  var n = parseInt(colour.slice(1, 7), 16);
  var lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return lum > 140 ? '#111111' : '#ffffff';
};

ArbiterView.start = function () {
  var el = ArbiterView.el;
  var data = JSON.parse(document.getElementById('match-data').textContent);
  var make = ArbiterView.renderers[data.game];
  if (!make) throw new Error('no renderer for game ' + data.game);
  var board = document.getElementById('board');
  board.parentNode.insertBefore(el('div', { id: 'legend', 'class': 'legend' }), board);
  var view = make(data, board, document.getElementById('game-controls'));
  var seats = view.seats, frames = view.frames;
  var frame = 0, timer = null;
  var speeds = [1, 2, 5, 10, 20, 50];
  var speed = 2;

  document.getElementById('title').textContent = data.title;
  var io = ArbiterView.ioPanel(data, seats, view);
  var rows = ArbiterView.seatRows(seats, function (i) { io.select(i); });
  var faults = ArbiterView.faultList(view, seats, frames, function (f) { go(f); }, data.io);
  var chart = ArbiterView.scoreChart(view, seats, faults, function (f) { stop(); go(f); });

  var scrub = document.getElementById('scrub');
  scrub.max = String(frames - 1);

  function show() {
    var scores = chart.scoresAt(frame);
    var status = view.status ? view.status(frame) : null;
    rows.forEach(function (r, i) {
      var v = scores[i];
      r.score.textContent = v === undefined || v === null ? '' : String(v);
      var st = status ? status[i] : '';
      faults.forEach(function (fl) { if (fl.seat === i && fl.frame <= frame) st = seats[i].status || 'fault'; });
      r.status.textContent = st || '';
      r.row.setAttribute('data-kind', ArbiterView.statusKind(st));
    });
    // Steps count from 0, as the transcript, `arbiter show --step` and `arbiter diff` count them.
    document.getElementById('frame-number').textContent = String(frame);
    document.getElementById('frame-count').textContent = String(frames - 1);
    document.getElementById('turn-label').textContent = view.label(frame);
    scrub.value = String(frame);
    document.body.setAttribute('data-frame', String(frame));
    view.draw(frame);
    chart.draw(frame);
    io.show(frame);
  }
  function go(f) {
    var before = frame;
    frame = Math.max(0, Math.min(frames - 1, f | 0));
    show();
    // A page that holds this one (arbiter diff's side by side) is told the frame, as the address counts it.
    if (frame !== before && window.parent !== window) window.parent.postMessage({ arbiterFrame: frame }, '*');
    // The step in the address, so that a shared link opens it (replaced: Back leaves the page).
    if (history.replaceState) history.replaceState(null, '', '#frame=' + frame);
  }
  // ... and may ask for one.
  window.addEventListener('message', function (e) {
    var d = e.data;
    if (e.source !== window.parent || !d || typeof d.arbiterGo !== 'number') return;
    if (d.arbiterGo !== frame) go(d.arbiterGo);
  });
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    document.getElementById('play').textContent = 'play';
  }
  function play() {
    if (frame >= frames - 1) go(0);
    document.getElementById('play').textContent = 'pause';
    timer = setInterval(function () {
      if (frame >= frames - 1) { stop(); return; }
      go(frame + 1);
    }, 1000 / speeds[speed]);
  }
  function toggle() { if (timer) stop(); else play(); }
  function setSpeed(s) {
    speed = Math.max(0, Math.min(speeds.length - 1, s));
    document.getElementById('speed').value = String(speed);
    document.getElementById('speed-label').textContent = speeds[speed] + '/s';
    if (timer) { stop(); play(); }
  }

  document.getElementById('play').addEventListener('click', toggle);
  document.getElementById('first').addEventListener('click', function () { stop(); go(0); });
  document.getElementById('back').addEventListener('click', function () { stop(); go(frame - 1); });
  document.getElementById('forward').addEventListener('click', function () { stop(); go(frame + 1); });
  document.getElementById('last').addEventListener('click', function () { stop(); go(frames - 1); });
  scrub.addEventListener('input', function () { stop(); go(Number(scrub.value)); });
  document.getElementById('speed').max = String(speeds.length - 1);
  document.getElementById('speed').addEventListener('input', function (e) { setSpeed(Number(e.target.value)); });
  document.addEventListener('keydown', function (e) {
    if (e.target && (e.target.tagName === 'INPUT' && e.target.type !== 'range' || e.target.tagName === 'SELECT')) return;
    var k = e.key;
    if (k === ' ') toggle();
    else if (k === 'ArrowRight') { stop(); go(frame + 1); }
    else if (k === 'ArrowLeft') { stop(); go(frame - 1); }
    else if (k === 'Home') { stop(); go(0); }
    else if (k === 'End') { stop(); go(frames - 1); }
    else if (k === 'ArrowUp' || k === '+') setSpeed(speed + 1);
    else if (k === 'ArrowDown' || k === '-') setSpeed(speed - 1);
    else return;
    e.preventDefault();
  });
  window.addEventListener('hashchange', function () {
    var h = /frame=(\d+)/.exec(location.hash);
    if (h && Number(h[1]) !== frame) { stop(); go(Number(h[1])); }
  });
  window.addEventListener('resize', function () { show(); });
  view.redraw = show;
  ArbiterView.repaint = function () { view.draw(frame); };
  setSpeed(speed);
  var m = /frame=(\d+)/.exec(location.hash);
  go(m ? Number(m[1]) : 0);
};

// One row per seat: swatch, name, score, status, time used; a click on a row calls pick(seat).
ArbiterView.seatRows = function (seats, pick) {
  var el = ArbiterView.el;
  var box = document.getElementById('seats');
  return seats.map(function (s, i) {
    var row = el('div', { 'class': 'seat', 'data-seat': i, title: 'show this seat\'s exchanges' });
    var sw = el('span', { 'class': 'swatch' });
    sw.style.background = s.colour;
    row.appendChild(sw);
    row.appendChild(el('span', { 'class': 'seat-name' }, s.name));
    var score = el('span', { 'class': 'seat-score' }, '');
    row.appendChild(score);
    var status = el('span', { 'class': 'seat-status' }, '');
    row.appendChild(status);
    row.appendChild(el('span', { 'class': 'seat-time' }, s.time !== null && s.time !== undefined
      ? s.time.toFixed(2) + ' s used' : ''));
    row.addEventListener('click', function () { pick(i); });
    box.appendChild(row);
    return { score: score, status: status, row: row };
  });
};

var SIGNALS = { 1: 'SIGHUP', 2: 'SIGINT', 6: 'SIGABRT', 7: 'SIGBUS', 8: 'SIGFPE', 9: 'SIGKILL', 11: 'SIGSEGV',
                13: 'SIGPIPE', 15: 'SIGTERM', 24: 'SIGXCPU', 25: 'SIGXFSZ', 31: 'SIGSYS' };

// What the record says about how a seat ended: status, exit code or signal, detail.
ArbiterView.endOf = function (s) {
  var parts = [s.status || 'fault'];
  if (s.exitSignal !== undefined && s.exitSignal !== null && s.exitSignal !== 0)
    parts.push('signal ' + s.exitSignal + (SIGNALS[s.exitSignal] ? ' (' + SIGNALS[s.exitSignal] + ')' : ''));
  else if (s.exitCode !== undefined && s.exitCode !== null) parts.push('exit code ' + s.exitCode);
  if (s.detail) parts.push(s.detail);
  return parts.join(', ');
};

function linesOf(text) {
  if (Array.isArray(text)) return text.map(String);
  return text ? String(text).replace(/\n$/, '').split('\n') : [];
}

// The faults: the renderer's (at their step), else the record's failed seats at the step where
// the transcript (io) has the table retire them, else at the last step; each with the record's
// status, exit and the last lines of its stderr. pick(frame) jumps there.
ArbiterView.faultList = function (view, seats, frames, pick, io) {
  var el = ArbiterView.el;
  var faults = (view.faults || []).slice();
  seats.forEach(function (s, i) {
    if (ArbiterView.statusKind(s.status) !== 'ok' && !faults.some(function (f) { return f.seat === i; }))
      faults.push({ frame: ArbiterView.retiredAt(io, i, frames), seat: i, text: '' });
  });
  var box = document.getElementById('faults');
  faults.sort(function (a, b) { return a.frame - b.frame; });
  faults.forEach(function (f) {
    var s = seats[f.seat];
    var item = el('div', { 'class': 'fault', 'data-kind': ArbiterView.statusKind(s.status || 'fault') });
    item.style.borderLeftColor = s.colour;
    var a = el('a', { href: '#frame=' + f.frame });
    var said = s.status ? ArbiterView.endOf(s) : '';
    a.textContent = view.label(f.frame) + ': ' + s.name + ' ' + (said || f.text) +
      (said && f.text && said.indexOf(f.text) < 0 ? ' (' + f.text + ')' : '');
    a.addEventListener('click', function (e) { e.preventDefault(); pick(f.frame); });
    item.appendChild(a);
    var tail = linesOf(s.stderrTail);
    if (tail.length) {
      item.appendChild(el('div', { 'class': 'io-label' }, 'last lines of its stderr:'));
      item.appendChild(el('pre', { 'class': 'io-text' }, tail.slice(-12).join('\n')));
    }
    box.appendChild(item);
  });
  if (!faults.length) box.appendChild(el('span', { 'class': 'muted' }, 'no faults'));
  return faults;
};

// The first step at which the transcript notes the table retiring seat i (a bot playing several
// table seats has its lines prefixed "[label] "); the last frame where it notes none.
ArbiterView.retiredAt = function (io, i, frames) {
  var first = frames - 1;
  Object.keys((io && io.steps) || {}).forEach(function (k) {
    var step = Number(k), entry = io.steps[k][i];
    if (!(step >= 0 && step < first) || !entry || !Array.isArray(entry.notes)) return;
    if (entry.notes.some(function (n) { return /^(\[[^\]]*\] )?retired: /.test(String(n)); })) first = step;
  });
  return first;
};

// The bots' exchanges at the shown step (data.io): sent, replied, time charged, stderr, events and
// the referee's notes, for the seat chosen. Bot text is set as textContent only.
ArbiterView.ioPanel = function (data, seats) {
  var el = ArbiterView.el;
  var anchor = document.getElementById('faults').previousElementSibling;
  var panel = anchor.parentNode;
  panel.insertBefore(el('h2', null, 'Bot I/O at this step'), anchor);
  var head = el('div', { 'class': 'io-head' });
  var label = el('label', null, 'seat ');
  var select = el('select', { id: 'io-seat' });
  seats.forEach(function (s, i) { select.appendChild(el('option', { value: String(i) }, s.name)); });
  label.appendChild(select);
  head.appendChild(label);
  panel.insertBefore(head, anchor);
  var box = el('div', { id: 'io', 'class': 'io' });
  panel.insertBefore(box, anchor);
  var shown = 0, seat = 0;
  select.addEventListener('change', function () { seat = Number(select.value); show(shown); });

  function line(text, cls) { box.appendChild(el('div', { 'class': cls || 'muted' }, text)); }
  function section(title, lines, empty) {
    box.appendChild(el('div', { 'class': 'io-label' }, title));
    if (lines && lines.length) box.appendChild(el('pre', { 'class': 'io-text' }, lines.join('\n')));
    else box.appendChild(el('div', { 'class': 'muted io-none' }, empty || 'nothing'));
  }
  function show(frame) {
    shown = frame;
    box.textContent = '';
    var io = data.io;
    if (!io) { line('no transcript: this match was viewed from a replay file'); return; }
    var step = io.steps ? io.steps[String(frame)] : null;
    var entry = step ? step[seat] : null;
    if (!entry) {
      line(step ? 'no exchange with this seat at this step' : 'no exchange at this step');
      if (io.cut) line(io.cut, 'io-cut');
    } else {
      line('arbiter show MATCH --seat ' + seat + ' --step ' + frame + ' prints this', 'io-ref');
      box.appendChild(el('div', { 'class': 'io-label' }, 'time charged: ' +
        (entry.charged_ms === null || entry.charged_ms === undefined ? 'none' : entry.charged_ms + ' ms')));
      section('sent to the bot (' + entry.sent.length + ' lines)', entry.sent);
      section('its reply', entry.reply, 'no reply');
      section('its stderr', entry.stderr);
      section('events', entry.notes, 'none');
    }
    var notes = io.notes ? io.notes[String(frame)] : null;
    if (notes && notes.length) section('the referee\'s notes', notes);
  }
  return {
    show: show,
    select: function (i) { seat = i; select.value = String(i); show(shown); }
  };
};

// Round steps for axis ticks: 1, 2 or 5 times a power of ten, about `count` of them over `span`.
function niceStep(span, count) {
  var raw = span / Math.max(1, count);
  var p = Math.pow(10, Math.floor(Math.log(raw) / Math.LN10));
  var m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

// The chart over the match: one line per seat in its colour, y ticks with values, x ticks in steps,
// a dashed mark where a new game starts (view.breaks), faults marked red, the shown step in black.
// view.charts = [{title, values(frame)}, ...] offers other series (a count of pieces, say): a select.
ArbiterView.scoreChart = function (view, seats, faults, pick) {
  var canvas = document.getElementById('chart');
  var title = canvas.previousElementSibling;
  var frames = view.frames, scores = [];
  for (var f = 0; f < frames; f++) scores.push(view.scores(f));
  var specs = view.charts || [{ title: 'Score over the match', values: function (i) { return scores[i]; } }];
  var series, lo, hi, yStep;
  function choose(k) {
    title.textContent = specs.length > 1 ? 'Over the match' : specs[k].title;
    series = [];
    for (var i = 0; i < frames; i++) series.push(specs[k].values(i));
    scale();
  }
  function scale() {
    lo = 0; hi = 0;
    var whole = true;
    series.forEach(function (row) {
      row.forEach(function (v) {
        if (v === null || v === undefined) return;
        lo = Math.min(lo, v); hi = Math.max(hi, v);
        if (v % 1 !== 0) whole = false;
      });
    });
    if (hi === lo) hi = lo + 1;
    yStep = niceStep(hi - lo, 4);
    if (whole) yStep = Math.max(1, yStep);
    lo = Math.floor(lo / yStep) * yStep;
    hi = Math.ceil(hi / yStep) * yStep;
  }
  if (specs.length > 1) {  // a choice of what to chart
    var select = ArbiterView.el('select', { id: 'chart-choice', 'aria-label': 'what the chart shows' });
    specs.forEach(function (sp, k) { select.appendChild(ArbiterView.el('option', { value: String(k) }, sp.title)); });
    select.addEventListener('change', function () { choose(Number(select.value)); draw(Number(document.body.getAttribute('data-frame'))); });
    canvas.parentNode.insertBefore(select, canvas);
  }
  choose(0);
  var M = { l: 42, r: 10, t: 8, b: 24 };

  function draw(frame) {
    var dpr = window.devicePixelRatio || 1;
    var w = canvas.clientWidth || 360, h = canvas.clientHeight || 160;
    if (canvas.width !== Math.round(w * dpr)) canvas.width = Math.round(w * dpr);
    if (canvas.height !== Math.round(h * dpr)) canvas.height = Math.round(h * dpr);
    var ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    var x = function (i) { return M.l + (frames > 1 ? (w - M.l - M.r) * i / (frames - 1) : 0); };
    var y = function (v) { return h - M.b - (h - M.t - M.b) * (v - lo) / (hi - lo); };
    axes(ctx, w, h, x, y);
    (view.breaks || []).forEach(function (b) {
      ctx.strokeStyle = '#555'; ctx.setLineDash([4, 3]); ctx.beginPath();
      ctx.moveTo(x(b.frame) - 0.5, M.t); ctx.lineTo(x(b.frame) - 0.5, h - M.b); ctx.stroke(); ctx.setLineDash([]);
      ctx.fillStyle = '#333'; ctx.textAlign = 'left'; ctx.fillText(b.label, x(b.frame) + 3, M.t + 9);
    });
    seats.forEach(function (s, p) { line(ctx, x, y, p, s.colour); });
    ctx.fillStyle = '#c62828';
    faults.forEach(function (fl) { ctx.fillRect(x(fl.frame) - 1.5, h - M.b - 7, 3, 7); });
    ctx.strokeStyle = '#000'; ctx.lineWidth = 1; ctx.beginPath();
    ctx.moveTo(Math.round(x(frame)) + 0.5, M.t); ctx.lineTo(Math.round(x(frame)) + 0.5, h - M.b); ctx.stroke();
  }
  function axes(ctx, w, h, x, y) {
    ctx.font = '11px system-ui, sans-serif'; ctx.lineWidth = 1;
    ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
    for (var v = lo; v <= hi + yStep / 2; v += yStep) {
      var yy = Math.round(y(v)) + 0.5;
      ctx.strokeStyle = v === 0 ? '#999' : '#e4e4e4';
      ctx.beginPath(); ctx.moveTo(M.l, yy); ctx.lineTo(w - M.r, yy); ctx.stroke();
      ctx.fillStyle = '#333'; ctx.fillText(String(Math.round(v * 100) / 100), M.l - 4, yy);
    }
    var xStep = Math.max(1, niceStep(Math.max(1, frames - 1), 5));
    ctx.textAlign = 'center'; ctx.textBaseline = 'top';
    ctx.strokeStyle = '#999';
    ctx.beginPath(); ctx.moveTo(M.l, h - M.b + 0.5); ctx.lineTo(w - M.r, h - M.b + 0.5); ctx.stroke();
    for (var i = 0; i < frames; i += xStep) {
      ctx.beginPath(); ctx.moveTo(Math.round(x(i)) + 0.5, h - M.b); ctx.lineTo(Math.round(x(i)) + 0.5, h - M.b + 4); ctx.stroke();
      ctx.fillText(String(i), x(i), h - M.b + 5);
    }
    ctx.textAlign = 'left';
    ctx.fillText('step', 2, h - M.b + 5);
  }
  function line(ctx, x, y, p, colour) {
    ctx.strokeStyle = colour; ctx.lineWidth = 2; ctx.beginPath();
    var open = false;
    for (var i = 0; i < frames; i++) {
      var v = series[i][p];
      if (v === null || v === undefined) { open = false; continue; }
      if (!open) ctx.moveTo(x(i), y(v)); else ctx.lineTo(x(i), y(v));
      open = true;
    }
    ctx.stroke();
    var last = series[frames - 1][p];  // a dot at the end: a series known only there still shows
    if (last !== null && last !== undefined) {
      ctx.beginPath(); ctx.arc(x(frames - 1), y(last), 3, 0, 7); ctx.fillStyle = colour; ctx.fill();
    }
  }
  canvas.addEventListener('click', function (e) {
    var r = canvas.getBoundingClientRect();
    pick(Math.round((e.clientX - r.left - M.l) / (r.width - M.l - M.r) * (frames - 1)));
  });
  return { draw: draw, scoresAt: function (f) { return scores[f]; } };
};

// A canvas board of cols x rows cells fitted to the room the page has, with zoom (buttons, the
// mouse wheel) and pan (drag). begin() sizes the canvas, sets the pan and returns the cell size in
// whole pixels (cells stay crisp); the renderer then draws the whole map at that size.
ArbiterView.zoomable = function (board, controls, opts) {
  var el = ArbiterView.el;
  var canvas = el('canvas', { id: opts.id, 'class': 'zoomable' });
  board.appendChild(canvas);
  var zoom = 1, ox = 0, oy = 0, cs = 1, vw = 0, vh = 0;
  var zooms = [1, 1.5, 2, 3, 4, 6, 8, 12, 16];

  function room() {
    var w = board.clientWidth - 14;
    var top = board.getBoundingClientRect().top + window.scrollY;
    return [Math.max(200, w), Math.max(240, window.innerHeight - top - 10)];
  }
  // Whole pixels from 10 px a cell up (crisp edges); smaller cells may be fractional, so that a big
  // map still fills the room (renderers draw their ground through a scaled image there, no seams).
  function whole(size) { return size >= 10 ? Math.floor(size) : size; }
  function layout() {
    var r = room();
    var fit = Math.min(r[0] / opts.cols, r[1] / opts.rows);
    fit = whole(Math.max(opts.minCell || 2, Math.min(opts.maxCell || 48, fit)));
    cs = whole(fit * zoom);
    vw = Math.min(r[0], Math.round(opts.cols * cs));
    vh = Math.min(r[1], Math.round(opts.rows * cs));
    ox = Math.max(0, Math.min(Math.round(opts.cols * cs) - vw, Math.round(ox)));
    oy = Math.max(0, Math.min(Math.round(opts.rows * cs) - vh, Math.round(oy)));
  }
  function begin() {
    layout();
    var dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(vw * dpr)) canvas.width = Math.round(vw * dpr);
    if (canvas.height !== Math.round(vh * dpr)) canvas.height = Math.round(vh * dpr);
    canvas.style.width = vw + 'px';
    canvas.style.height = vh + 'px';
    canvas.style.cursor = vw < opts.cols * cs || vh < opts.rows * cs ? 'grab' : 'default';
    var ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, -ox * dpr, -oy * dpr);
    ctx.imageSmoothingEnabled = false;
    ctx.clearRect(ox, oy, vw, vh);
    return cs;
  }
  function repaint() { if (ArbiterView.repaint) ArbiterView.repaint(); }
  // Zooms to level z keeping the map point under (px, py) of the canvas where it is.
  function zoomTo(z, px, py) {
    z = Math.max(0, Math.min(zooms.length - 1, z));
    if (px === undefined) { px = vw / 2; py = vh / 2; }
    var wx = (ox + px) / cs, wy = (oy + py) / cs;
    zoom = zooms[z];
    layout();
    ox = wx * cs - px; oy = wy * cs - py;
    label.textContent = '\u00d7' + zoom;
    repaint();
  }
  function level() { return zooms.indexOf(zoom); }

  var group = el('span', { 'class': 'zoom-controls' });
  var out = el('button', { title: 'zoom out (mouse wheel on the board)' }, '\u2212');
  var label = el('span', { 'class': 'zoom-label' }, '\u00d71');
  var inn = el('button', { title: 'zoom in (mouse wheel on the board); drag the board to pan' }, '+');
  var fit = el('button', { title: 'fit the board to the page' }, 'fit');
  [out, label, inn, fit].forEach(function (e) { group.appendChild(e); });
  controls.appendChild(group);
  out.addEventListener('click', function () { zoomTo(level() - 1); });
  inn.addEventListener('click', function () { zoomTo(level() + 1); });
  fit.addEventListener('click', function () { ox = oy = 0; zoomTo(0); });
  canvas.addEventListener('wheel', function (e) {
    e.preventDefault();
    var r = canvas.getBoundingClientRect();
    zoomTo(level() + (e.deltaY < 0 ? 1 : -1), e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  var drag = null;
  canvas.addEventListener('pointerdown', function (e) {
    drag = { x: e.clientX, y: e.clientY, ox: ox, oy: oy };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', function (e) {
    if (!drag) return;
    ox = drag.ox - (e.clientX - drag.x);
    oy = drag.oy - (e.clientY - drag.y);
    repaint();
  });
  canvas.addEventListener('pointerup', function () { drag = null; });
  return { canvas: canvas, ctx: canvas.getContext('2d'), begin: begin };
};

window.addEventListener('DOMContentLoaded', function () {
  try {
    ArbiterView.start();
  } catch (e) {
    document.getElementById('title').textContent = 'This match cannot be shown: ' + e.message;
    throw e;
  }
});
