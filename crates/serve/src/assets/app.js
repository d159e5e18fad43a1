// The classroom screen. Everything shown comes from the server's JSON API; the page
// knows no game: moves are the server's notation, the board is the server's SVG, and
// each move says which spots of the board picture it changes.
'use strict';

const token = new URLSearchParams(location.search).get('token');
const teacher = token !== null && token !== '';
const $ = (id) => document.getElementById(id);
let kit = null;
let words = {};
let game = null;
let picked = [];
let version = -1;

function say(key, values) {
  let text = words[key] || key;
  for (const [name, value] of Object.entries(values || {})) {
    text = text.split('{' + name + '}').join(String(value));
  }
  return text;
}

function element(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === 'text') node.textContent = value;
    else if (name === 'onclick') node.addEventListener('click', value);
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

async function api(method, path, body) {
  const headers = {};
  if (teacher) headers['x-matchbox-token'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) {
    showError(data.error || String(response.status));
    throw new Error(data.error);
  }
  $('error').hidden = true;
  return data;
}

function showError(text) {
  $('error').textContent = text;
  $('error').hidden = false;
}

function dot(colour) {
  const d = element('span', { class: 'dot', text: colour.code, title: colour.name });
  d.style.background = colour.rgb;
  return d;
}

function beadLine(bead, drawn) {
  return element('li', { class: 'bead-line' + (drawn ? ' drawn' : '') },
    dot(bead.colour), element('span', { class: 'count', text: '× ' + bead.count }),
    element('span', { text: bead.colour.name + ' · ' + bead.words }));
}

// ---- the board ---------------------------------------------------------------

const inside = (p, s) => p[0] >= s[0] && p[0] <= s[0] + s[2] && p[1] >= s[1] && p[1] <= s[1] + s[3];
const spotKey = (s) => s[0] + ',' + s[1];

// The moves that fit every spot picked so far, each picked spot in a different one of its spots.
function candidates(points) {
  return game.moves.filter((m) => points.length <= m.spots.length &&
    points.every((p) => m.spots.some((s) => inside(p, s))));
}

function clickSpot(spot) {
  if (!teacher || !game || game.end) return;
  const centre = [spot[0] + spot[2] / 2, spot[1] + spot[3] / 2];
  if (picked.some((p) => inside(p, spot))) {
    picked = [];
  } else {
    picked.push(centre);
    if (candidates(picked).length === 0) picked = candidates([centre]).length ? [centre] : [];
  }
  const complete = candidates(picked).filter((m) => m.spots.length === picked.length);
  if (complete.length === 1) {
    picked = [];
    play(complete[0].move);
    return;
  }
  drawSpots();
}

function drawSpots() {
  const svg = $('board').querySelector('svg');
  if (!svg) return;
  svg.querySelectorAll('.spot').forEach((n) => n.remove());
  if (!game || game.end) return;
  const targets = picked.length ? candidates(picked) : [];
  const seen = new Set();
  for (const m of game.moves) {
    for (const s of m.spots) {
      const key = spotKey(s);
      if (seen.has(key)) continue;
      seen.add(key);
      const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      r.setAttribute('x', s[0]); r.setAttribute('y', s[1]);
      r.setAttribute('width', s[2]); r.setAttribute('height', s[3]);
      let cls = 'spot';
      if (picked.some((p) => inside(p, s))) cls += ' picked';
      else if (targets.some((t) => t.spots.some((o) => spotKey(o) === key))) cls += ' target';
      r.setAttribute('class', cls);
      r.setAttribute('data-spot', key);
      r.addEventListener('click', () => clickSpot(s));
      svg.append(r);
    }
  }
}

async function play(move) {
  try {
    game = await api('POST', '/api/game/move', { move, game: game.number, ply: game.ply });
  } catch (e) { /* shown */ }
  await refresh(true);
}

// ---- rendering ---------------------------------------------------------------

function renderGame() {
  $('game-title').textContent = say('page.game', { n: game.number });
  $('board').innerHTML = game.board;
  picked = [];
  drawSpots();
  const canMove = teacher && !game.end;
  $('prompt').textContent = game.end ? '' : (teacher ? say('page.your_move') : '');
  $('moves').replaceChildren(...(canMove ? game.moves.map((m) =>
    element('button', { class: 'move', 'data-move': m.move, text: m.words, type: 'button', onclick: () => play(m.move) })) : []));
  $('typed').hidden = !canMove;
  const turns = game.turns.map((t) => element('li', {
    text: (t.who === 'human' ? say('page.human') : say('page.machine')) + ': ' + (t.words || '—'),
  }));
  $('turns').replaceChildren(...turns);
  renderEnd();
  renderMachine();
}

function renderEnd() {
  const end = $('end');
  end.hidden = !game.end;
  if (!game.end) return;
  end.className = 'end ' + game.end;
  const lines = game.changes.map((c) => element('li', {
    text: say(c.after < c.before ? 'page.change_out' : 'page.change_in',
      { box: c.box, colour: c.colour.name, before: c.before, after: c.after }) + ' · ' + c.words,
  }));
  end.replaceChildren(
    element('p', { class: 'result', text: say('page.end.' + game.end) }),
    element('p', { text: game.changes.length ? say('page.rule', { rule: game.rule }) : say('page.no_change') }),
    element('ul', { id: 'changes' }, ...lines));
  if (teacher) {
    end.append(element('button', { id: 'new-game', class: 'primary', type: 'button', text: say('page.new_game'),
      onclick: async () => { try { await api('POST', '/api/game/new'); } catch (e) { /* shown */ } await refresh(true); } }));
  }
}

async function renderMachine() {
  const steps = $('steps');
  const turn = [...game.turns].reverse().find((t) => t.who === 'machine');
  if (!turn) {
    steps.replaceChildren(element('p', { text: say('page.waiting') }));
    return;
  }
  const step = (key, ...content) => element('div', { class: 'step' }, element('h3', { text: say(key) }), ...content);
  if (turn.box === null) {
    steps.replaceChildren(element('p', { id: 'drawn', text: say('page.forced', { move: turn.words }) }));
    return;
  }
  const label = element('div', { class: 'label', id: 'machine-label' });
  const drawnText = turn.move == null ? say('page.resigned')
    : kit.rule === 'relay' ? say('page.relay', { move: turn.words })
    : say('page.drawn', { colour: turn.beads[turn.drawn].colour.name, move: turn.words });
  steps.replaceChildren(
    step('page.step_box', element('p', { class: 'count', id: 'machine-box', text: say('page.box', { id: turn.box }) }), label),
    step('page.step_turn', element('p', { text: turn.turn })),
    step('page.step_beads', element('ul', { class: 'beads' }, ...turn.beads.map((b, i) => beadLine(b, i === turn.drawn)))),
    step('page.step_draw', element('p', { class: 'count', id: 'drawn', text: drawnText })));
  const box = await api('GET', '/api/boxes/' + turn.box);
  label.innerHTML = box.label;
}

function renderBoxes(boxes) {
  const used = new Set(game.turns.filter((t) => t.who === 'machine' && t.box !== null).map((t) => t.box));
  $('boxes').replaceChildren(...boxes.map((b) => {
    let cls = 'box';
    if (b.beads === 0) cls += ' empty';
    else if (b.beads < b.start) cls += ' lost';
    if (used.has(b.id)) cls += ' used';
    return element('button', { class: cls, type: 'button', id: 'box-' + b.id, 'data-beads': b.beads,
      'data-counts': b.moves.map((m) => m.count).join(','), onclick: () => showBox(b.id) },
      element('span', { class: 'box-id', text: say('page.box', { id: b.id }) }),
      element('span', { class: 'tag', text: b.tag }),
      element('span', { class: 'dots' }, ...b.moves.map((m) =>
        element('span', {}, dot(m.colour), ' ' + m.count))));
  }));
}

async function showBox(id) {
  const box = await api('GET', '/api/boxes/' + id);
  $('box-view-title').textContent = say('page.box', { id: box.id }) + ' · ' + box.tag;
  $('box-view-label').innerHTML = box.label;
  $('box-view-beads').replaceChildren(...box.moves.map((m) => beadLine(m, false)));
  $('box-view').hidden = false;
}

function renderScore(score) {
  const text = say('page.totals', { games: score.games, wins: score.wins, draws: score.draws, losses: score.losses });
  $('totals').textContent = text;
  $('score-totals').textContent = text;
  $('curve').innerHTML = curve(score.curve);
  const head = element('tr', {}, ...['score.game', 'score.winner', 'score.change', 'score.losses']
    .map((k) => element('th', { text: say(k) })));
  const rows = score.rows.map((r) => element('tr', {},
    element('td', { text: r.game }),
    element('td', { text: say('page.winner.' + r.end) }),
    element('td', { text: r.change === null ? say('page.trained') : (r.change > 0 ? '+' : '') + r.change }),
    element('td', { text: r.losses })));
  $('score-table').replaceChildren(head, ...rows);
  $('undo').disabled = !score.can_undo;
}

// The learning curve: the machine's losses so far against games played.
function curve(points) {
  const [w, h, left, bottom, top, right] = [640, 310, 70, 60, 20, 20];
  const x0 = points[0][0];
  const x1 = Math.max(points[points.length - 1][0], x0 + 1);
  const y1 = Math.max(1, ...points.map((p) => p[1]));
  const sx = (g) => left + (g - x0) / (x1 - x0) * (w - left - right);
  const sy = (l) => h - bottom - l / y1 * (h - bottom - top);
  const line = points.map((p) => sx(p[0]).toFixed(1) + ',' + sy(p[1]).toFixed(1)).join(' ');
  const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" id="curve-svg" data-points="${points.length}">
<polyline points="${left},${top} ${left},${h - bottom} ${w - right},${h - bottom}" fill="none" stroke="#000" stroke-width="3"/>
<text x="${left - 8}" y="${sy(0) + 6}" font-size="18" text-anchor="end">0</text>
<text x="${left - 8}" y="${sy(y1) + 6}" font-size="18" text-anchor="end">${y1}</text>
<text x="${left}" y="${h - bottom + 24}" font-size="18">${x0}</text>
<text x="${w - right}" y="${h - bottom + 24}" font-size="18" text-anchor="end">${x1}</text>
<text x="${(w + left) / 2}" y="${h - 12}" font-size="18" text-anchor="middle">${esc(say('score.axis_games'))}</text>
<text x="18" y="${(h - bottom + top) / 2}" font-size="18" text-anchor="middle" transform="rotate(-90 18 ${(h - bottom + top) / 2})">${esc(say('score.axis_losses'))}</text>
<polyline points="${line}" fill="none" stroke="#c00000" stroke-width="5" stroke-linejoin="round"/>
</svg>`;
}

function renderTraining(progress) {
  $('train-progress').hidden = !progress.running;
  $('train-cancel').hidden = !progress.running;
  $('train-start').disabled = progress.running;
  $('train-bar').max = Math.max(progress.total, 1);
  $('train-bar').value = progress.done;
  $('train-text').textContent = say('page.training', { done: progress.done, total: progress.total });
}

// ---- keeping up to date ------------------------------------------------------

async function refresh(force) {
  const latest = await api('GET', '/api/game');
  if (!force && latest.version === version) return;
  game = latest;
  version = game.version;
  const [boxes, score, progress] = await Promise.all([
    api('GET', '/api/boxes'), api('GET', '/api/score'), api('GET', '/api/train')]);
  renderGame();
  renderBoxes(boxes);
  renderScore(score);
  renderTraining(progress);
  document.body.dataset.version = version;
  if (progress.running) setTimeout(watchTraining, 200);
}

async function watchTraining() {
  const progress = await api('GET', '/api/train');
  renderTraining(progress);
  if (progress.running) setTimeout(watchTraining, 200);
  else await refresh(true);
}

function setUp() {
  document.title = kit.name;
  $('kit-name').textContent = kit.name;
  $('view-only').textContent = say('page.view_only');
  $('view-only').hidden = teacher;
  $('teacher').hidden = !teacher;
  const text = {
    'type-label': 'page.type_move', send: 'page.send', 'machine-title': 'page.machine_turn',
    'turns-title': 'page.turns', 'memory-title': 'page.memory', 'memory-hint': 'page.memory_hint',
    'score-title': 'page.score', 'curve-title': 'score.chart', 'train-title': 'page.train', 'train-games-label': 'page.train_games',
    'train-opponent-label': 'page.train_opponent', 'train-start': 'page.start', 'train-cancel': 'page.cancel',
    undo: 'page.undo', reset: 'page.reset', 'reset-question': 'page.reset_confirm', 'reset-yes': 'page.yes',
    'reset-no': 'page.no', 'box-view-close': 'page.close',
  };
  for (const [id, key] of Object.entries(text)) $(id).textContent = say(key);
  $('train-games').max = kit.max_train_games;
  $('train-opponent').replaceChildren(...kit.opponents.map((o) =>
    element('option', { value: o, text: say('page.opponent.' + o) })));
  $('typed').addEventListener('submit', (e) => {
    e.preventDefault();
    const typed = $('typed-move').value.trim().toLowerCase().replace(/\s+/g, ' ');
    // The notation or the kit's words, whole or before the comma (`take 2`, `weź 2`).
    const fits = (w) => w.toLowerCase() === typed || w.toLowerCase().split(',')[0] === typed;
    const found = game.moves.find((m) => fits(m.move) || fits(m.words));
    $('typed-move').value = '';
    play(found ? found.move : typed);
  });
  $('train-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const progress = await api('POST', '/api/train', { games: Number($('train-games').value), opponent: $('train-opponent').value });
      renderTraining(progress);
      setTimeout(watchTraining, 200);
    } catch (err) { /* shown */ }
  });
  $('train-cancel').addEventListener('click', () => api('POST', '/api/train/cancel').catch(() => {}));
  $('undo').addEventListener('click', async () => { try { await api('POST', '/api/undo'); } catch (e) { /* shown */ } await refresh(true); });
  $('reset').addEventListener('click', () => { $('reset-confirm').hidden = false; });
  $('reset-no').addEventListener('click', () => { $('reset-confirm').hidden = true; });
  $('reset-yes').addEventListener('click', async () => {
    $('reset-confirm').hidden = true;
    try { await api('POST', '/api/reset'); } catch (e) { /* shown */ }
    await refresh(true);
  });
  $('box-view-close').addEventListener('click', () => { $('box-view').hidden = true; });
}

async function start() {
  kit = await api('GET', '/api/kit');
  words = kit.words;
  document.documentElement.lang = kit.language;
  setUp();
  await refresh(true);
  document.body.dataset.ready = 'yes';
  // Watchers (and a second tab) follow the teacher's screen.
  setInterval(() => refresh(false).catch(() => {}), 1500);
}

start();
