// The viewer shell: reads the match data embedded in the page, asks the game's renderer for its
// frames, and drives them: play/pause, step, scrubber, speed, keys, the seats' scores and status
// over time, a score chart and the faults at the turn they happened.
'use strict';
var ArbiterView = window.ArbiterView || (window.ArbiterView = { renderers: {} });

ArbiterView.colours = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf',
                       '#7f7f7f', '#bcbd22'];

ArbiterView.el = function (tag, attrs, text) {
  var e = document.createElement(tag);
  if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = String(text);
  return e;
};

// The seats as the record has them (name, status, time), else as the replay names them.
ArbiterView.seatsOf = function (data, names) {
  var parts = data.record && Array.isArray(data.record.participants) ? data.record.participants : null;
  var count = parts ? parts.length : names.length;
  var seats = [];
  for (var i = 0; i < count; i++) {
    var p = parts ? parts[i] : null;
    seats.push({
      name: p ? p.bot : names[i],
      colour: ArbiterView.colours[i % ArbiterView.colours.length],
      status: p ? p.status : '',
      detail: p ? (p.detail || '') : '',
      score: p ? p.score : null,
      time: p && p.usage ? p.usage.wall_used_s : null
    });
  }
  return seats;
};

ArbiterView.start = function () {
  var el = ArbiterView.el;
  var data = JSON.parse(document.getElementById('match-data').textContent);
  var make = ArbiterView.renderers[data.game];
  if (!make) throw new Error('no renderer for game ' + data.game);
  var board = document.getElementById('board');
  var view = make(data, board, document.getElementById('game-controls'));
  var seats = view.seats;
  var frames = view.frames;
  var frame = 0, timer = null;
  var speeds = [1, 2, 5, 10, 20, 50];
  var speed = 2;

  document.getElementById('title').textContent = data.title;
  var seatBox = document.getElementById('seats');
  var rows = seats.map(function (s, i) {
    var row = el('div', { 'class': 'seat', 'data-seat': i });
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
    seatBox.appendChild(row);
    return { score: score, status: status, row: row };
  });

  // Faults: the renderer's (placed at their turn), else the record's failed seats at the end.
  var faults = (view.faults || []).slice();
  seats.forEach(function (s, i) {
    if (s.status && s.status !== 'ok' && !faults.some(function (f) { return f.seat === i; }))
      faults.push({ frame: frames - 1, seat: i, text: s.status + (s.detail ? ': ' + s.detail : '') });
  });
  var faultBox = document.getElementById('faults');
  faults.sort(function (a, b) { return a.frame - b.frame; });
  faults.forEach(function (f) {
    var a = el('a', { href: '#', 'class': 'fault' });
    a.textContent = view.label(f.frame) + ': ' + seats[f.seat].name + ' ' + f.text;
    a.style.borderLeftColor = seats[f.seat].colour;
    a.addEventListener('click', function (e) { e.preventDefault(); go(f.frame); });
    faultBox.appendChild(a);
  });
  if (!faults.length) faultBox.appendChild(el('span', { 'class': 'muted' }, 'no faults'));

  var scrub = document.getElementById('scrub');
  scrub.max = String(frames - 1);
  var chart = document.getElementById('chart');
  var series = [];
  for (var f = 0; f < frames; f++) series.push(view.scores(f));

  function drawChart() {
    var ctx = chart.getContext('2d');
    var w = chart.width, h = chart.height;
    ctx.clearRect(0, 0, w, h);
    var lo = 0, hi = 1;
    series.forEach(function (row) { row.forEach(function (v) { if (v < lo) lo = v; if (v > hi) hi = v; }); });
    var x = function (i) { return frames > 1 ? 4 + (w - 8) * i / (frames - 1) : w / 2; };
    var y = function (v) { return h - 4 - (h - 8) * (v - lo) / (hi - lo); };
    ctx.strokeStyle = '#ccc';
    ctx.beginPath(); ctx.moveTo(0, y(0)); ctx.lineTo(w, y(0)); ctx.stroke();
    seats.forEach(function (s, p) {
      ctx.strokeStyle = s.colour; ctx.lineWidth = 1.5; ctx.beginPath();
      for (var i = 0; i < frames; i++) {
        var v = series[i][p] || 0;
        if (i === 0) ctx.moveTo(x(i), y(v)); else ctx.lineTo(x(i), y(v));
      }
      ctx.stroke();
    });
    ctx.fillStyle = 'rgba(200,0,0,0.8)';
    faults.forEach(function (fl) { ctx.fillRect(x(fl.frame) - 1, h - 6, 3, 6); });
    ctx.strokeStyle = '#000'; ctx.lineWidth = 1; ctx.beginPath();
    ctx.moveTo(x(frame), 0); ctx.lineTo(x(frame), h); ctx.stroke();
  }
  chart.addEventListener('click', function (e) {
    var r = chart.getBoundingClientRect();
    go(Math.round((e.clientX - r.left - 4) / (r.width - 8) * (frames - 1)));
  });

  function show() {
    var scores = series[frame];
    var status = view.status ? view.status(frame) : null;
    rows.forEach(function (r, i) {
      var v = scores[i];
      r.score.textContent = v === undefined || v === null ? '' : String(v);
      var st = status ? status[i] : '';
      faults.forEach(function (fl) { if (fl.seat === i && fl.frame <= frame) st = seats[i].status || 'fault'; });
      r.status.textContent = st || '';
      r.row.classList.toggle('failed', !!st && st !== 'alive' && st !== 'playing');
    });
    // Steps count from 0, as the transcript, `arbiter show --step` and `arbiter diff` count them.
    document.getElementById('frame-number').textContent = String(frame);
    document.getElementById('frame-count').textContent = String(frames - 1);
    document.getElementById('turn-label').textContent = view.label(frame);
    scrub.value = String(frame);
    document.body.setAttribute('data-frame', String(frame));
    view.draw(frame);
    drawChart();
  }
  function go(f) {
    var before = frame;
    frame = Math.max(0, Math.min(frames - 1, f | 0));
    show();
    // A page that holds this one (arbiter diff's side by side) is told the frame, as the address counts it.
    if (frame !== before && window.parent !== window) window.parent.postMessage({ arbiterFrame: frame }, '*');
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
  view.redraw = show;
  setSpeed(speed);
  var m = /frame=(\d+)/.exec(location.hash);
  go(m ? Number(m[1]) : 0);
};

window.addEventListener('DOMContentLoaded', function () {
  try {
    ArbiterView.start();
  } catch (e) {
    document.getElementById('title').textContent = 'This match cannot be shown: ' + e.message;
    throw e;
  }
});
