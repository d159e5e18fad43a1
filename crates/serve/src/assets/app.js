// The classroom screen. Everything shown comes from the machine's JSON API, reached
// through `transport` (transport.js: HTTP to `matchbox serve`, or the static site's
// engine in the browser); the page knows no game: moves are the API's notation, the
// board is its SVG, and each move says which spots of the board picture it changes.
import { transport } from './transport.js';
import { $, checkTransport, element, number, say, useWords } from './page.js';

// Whether this screen is the teacher's (the others follow it): the transport says, once
// it is checked to keep its contract.
const teacher = checkTransport(transport).teacher;

// The page's one state: what the machine last said, and what this screen is doing. A
// change of it calls the render of each panel it touches (`changed`).
const state = {
  // The kit, its words and its choices (`GET /api/kit`).
  kit: null,
  // The game, the boxes, the score and the run under way, of one moment (`GET /api/now`).
  game: null,
  boxes: [],
  score: null,
  progress: null,
  // The change counter of the last answer shown.
  version: -1,
  // The panel shown, and the one this screen asked the server to show, until an answer
  // says the server shows it: an answer already on its way holds the panel before, and
  // must not turn the screen back to it.
  panel: 'game',
  askedPanel: null,
  // The boxes' pictures (asked for once the memory is shown) and labels, by box id.
  pictures: null,
  labels: new Map(),
  // The points of the board clicked towards a move, and the spot the keyboard is on (an
  // index into `reachable()`, drawn with a thick frame).
  picked: [],
  cursor: 0,
  // The move on its way to the machine, if any: a second click or tap meanwhile (a
  // double click, a tap repeated on a whiteboard) is the same move, not a new one.
  sending: null,
  // Whether the stuck panel asks before resetting to fresh boxes.
  resetAsked: false,
  // What a screen reader was last told of the machine's turn and the result.
  announced: '',
  // What finds the control that opened the box dialog: the focus goes back to it.
  opener: null,
  // The settings panel (`GET /api/settings`), and whether the teacher is typing in it
  // (then a reload of the settings does not undo it).
  settings: null,
  editing: false,
  // Why the static site's browser storage could not keep the last beads ('full',
  // 'blocked'), or null.
  browserUnkept: null,
};

// ---- talking to the machine; errors stay until the next action or a dismiss -----

const api = transport.api;

// An error, with a button that acts on it (`action`: its words and what it does), if any.
function showError(text, action) {
  $('error').classList.remove('note');
  $('error-text').textContent = text;
  $('error-action').hidden = !action;
  if (action) {
    $('error-action').textContent = action.words;
    $('error-action').onclick = () => act(action.run);
  }
  $('error').hidden = false;
}

// What the teacher should know, not a refusal, in the same place.
function showNote(text) {
  showError(text);
  $('error').classList.add('note');
}

// A teacher's action: the last error goes, the action's own error (if any) stays.
async function act(action) {
  $('error').hidden = true;
  try {
    await action();
  } catch (e) {
    showError(e.refused ? e.message : say(transport.noAnswer));
  }
  await refresh(true).catch(() => {});
}

// ---- small pieces -------------------------------------------------------------

function dot(colour) {
  const code = element('span', { class: 'code', text: colour.code });
  // A code of two or more letters (`Br`) is set smaller, to stay inside its dot.
  if (colour.code.length > 1) code.style.fontSize = (colour.code.length > 2 ? 0.55 : 0.72) + 'em';
  const d = element('span', { class: 'dot', title: colour.name }, code);
  d.style.background = colour.rgb;
  return d;
}

// A move's beads: its colour, how many, and (unless `short`) the move it stands for.
function beadLine(bead, drawn, short) {
  const line = element('li', { class: 'bead-line' + (drawn ? ' drawn' : ''), title: bead.colour.name + ': ' + bead.words },
    dot(bead.colour), element('span', { class: 'count', text: '× ' + number(bead.count) }));
  if (!short) line.append(element('span', { text: bead.colour.name + ': ' + bead.words }));
  return line;
}

// Boxes of many moves (Marienbad's first has 14) list their beads without the moves'
// words, which the label shows, and offer the class's moves as a list rather than a
// button each, so that the turn stays on one screen.
const MANY = 6;

async function label(id) {
  if (!state.labels.has(id)) state.labels.set(id, (await api('GET', '/api/boxes/' + id)).label);
  return state.labels.get(id);
}

// ---- the board ----------------------------------------------------------------

const inside = (p, s) => p[0] >= s[0] && p[0] <= s[0] + s[2] && p[1] >= s[1] && p[1] <= s[1] + s[3];
const spotKey = (s) => s[0] + ',' + s[1];

// The moves that fit every spot picked so far, each picked spot in a different one of its spots.
function candidates(points) {
  return state.game.moves.filter((m) => points.length <= m.spots.length &&
    points.every((p) => m.spots.some((s) => inside(p, s))));
}

function clickSpot(spot) {
  if (!teacher || !state.game || state.game.end || busy()) return;
  const centre = [spot[0] + spot[2] / 2, spot[1] + spot[3] / 2];
  if (state.picked.some((p) => inside(p, spot))) {
    state.picked = [];
  } else {
    state.picked.push(centre);
    if (candidates(state.picked).length === 0) state.picked = candidates([centre]).length ? [centre] : [];
  }
  const complete = candidates(state.picked).filter((m) => m.spots.length === state.picked.length);
  if (complete.length === 1) {
    state.picked = [];
    state.cursor = 0;
    play(complete[0].move);
    return;
  }
  state.cursor = 0;
  drawSpots();
}

// The spots the keyboard moves between: where a move starts, or once one is picked,
// where the moves it starts can end.
function reachable() {
  if (!state.game || state.game.end || !teacher || busy()) return [];
  const seen = new Map();
  const add = (s) => { if (!seen.has(spotKey(s))) seen.set(spotKey(s), s); };
  if (state.picked.length) {
    for (const m of candidates(state.picked)) for (const s of m.spots) if (!state.picked.some((p) => inside(p, s))) add(s);
  } else {
    for (const m of state.game.moves) add(m.spots[0]);
  }
  return [...seen.values()];
}

// The arrow keys go to the nearest reachable spot that way, Enter or Space clicks it.
function boardKey(e) {
  const spots = reachable();
  if (!spots.length) return;
  const ways = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
  const centre = (s) => [s[0] + s[2] / 2, s[1] + s[3] / 2];
  state.cursor = Math.min(state.cursor, spots.length - 1);
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    clickSpot(spots[state.cursor]);
    return;
  }
  const way = ways[e.key];
  if (!way) return;
  e.preventDefault();
  const [x, y] = centre(spots[state.cursor]);
  let best = -1;
  let bestCost = Infinity;
  spots.forEach((s, i) => {
    const [sx, sy] = centre(s);
    const along = (sx - x) * way[0] + (sy - y) * way[1];
    const across = Math.abs((sx - x) * way[1]) + Math.abs((sy - y) * way[0]);
    if (along > 0.5 && along + 2 * across < bestCost) { best = i; bestCost = along + 2 * across; }
  });
  if (best >= 0) state.cursor = best;
  drawSpots();
}

// What the spot under the keyboard starts or ends, for a screen reader.
function sayCursor() {
  const spots = reachable();
  const s = spots[Math.min(state.cursor, spots.length - 1)];
  const moves = s ? state.game.moves.filter((m) => m.spots.some((o) => spotKey(o) === spotKey(s))) : [];
  $('board-said').textContent = moves.map((m) => m.words).join('; ');
}

// A rectangle over a spot of the board picture.
function rect(s, cls) {
  const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  r.setAttribute('x', s[0]); r.setAttribute('y', s[1]);
  r.setAttribute('width', s[2]); r.setAttribute('height', s[3]);
  r.setAttribute('class', cls);
  return r;
}

function drawSpots() {
  const svg = $('board').querySelector('svg');
  if (!svg) return;
  svg.querySelectorAll('.spot').forEach((n) => n.remove());
  const keys = reachable();
  $('board').tabIndex = keys.length ? 0 : -1;
  if (keys.length) sayCursor();
  if (!state.game) return;
  // The machine's latest move, marked until the class moves.
  for (const s of state.game.last) svg.append(rect(s, 'spot last'));
  if (state.game.end) return;
  const targets = state.picked.length ? candidates(state.picked) : [];
  // What a pupil can start a move with: the piece that moves, the square, the stone.
  const first = new Set(state.game.moves.map((m) => spotKey(m.spots[0])));
  // Pieces that move are marked strongly; where one click makes the move, lightly.
  const pieces = state.game.moves.some((m) => m.spots.length > 1);
  const seen = new Set();
  for (const m of state.game.moves) {
    for (const s of m.spots) {
      const key = spotKey(s);
      if (seen.has(key)) continue;
      seen.add(key);
      let cls = 'spot';
      if (state.picked.some((p) => inside(p, s))) cls += ' picked';
      else if (targets.some((t) => t.spots.some((o) => spotKey(o) === key))) cls += ' target';
      else if (!state.picked.length && first.has(key) && teacher && !busy()) cls += pieces ? ' movable' : ' open';
      const r = rect(s, cls);
      r.setAttribute('data-spot', key);
      r.addEventListener('click', (e) => { e.stopPropagation(); if (!repeated(e)) clickSpot(s); });
      svg.append(r);
    }
  }
  markCursor();
}

// Frames the spot the keyboard is on while the keyboard has the board. The spots stay as
// they are: a click that focused the board lands on the spot it was pressed on.
function markCursor() {
  const spots = reachable();
  const under = spots.length ? spotKey(spots[Math.min(state.cursor, spots.length - 1)]) : null;
  const shown = $('board').matches(':focus-visible');
  for (const r of $('board').querySelectorAll('rect.spot[data-spot]')) {
    r.classList.toggle('cursor', shown && r.dataset.spot === under);
  }
}

// For scripts and tests, `data-sending` on the body while a move is on its way.
function play(move) {
  if (state.sending !== null) return state.sending;
  document.body.dataset.sending = 'yes';
  state.sending = act(async () => {
    state.game = await api('POST', '/api/game/move', { move, game: state.game.number, ply: state.game.ply });
  }).finally(() => {
    state.sending = null;
    delete document.body.dataset.sending;
  });
  return state.sending;
}

// Whether a click is the second (or third) of a quick series: on a redrawn board it would
// land on the next board's piece or button, so it is not a move of its own.
const repeated = (e) => e.detail > 1;

// ---- the game panel -------------------------------------------------------------

// Whether the machine is busy playing on its own (no moves by hand meanwhile).
const busy = () => state.progress !== null && state.progress.running;

function renderGame() {
  $('game-title').textContent = say('page.game', { n: state.game.number });
  $('board').innerHTML = state.game.board;
  $('board').classList.toggle('view', !teacher);
  state.picked = [];
  drawSpots();
  const canMove = teacher && !state.game.end && !busy();
  $('prompt').hidden = !canMove;
  $('prompt').textContent = say('page.your_move.' + state.kit.game);
  $('moves').replaceChildren(...(!canMove ? [] : state.game.moves.length <= MANY ? state.game.moves.map((m) =>
    element('button', { class: 'move', 'data-move': m.move, text: m.words, type: 'button', onclick: (e) => { if (!repeated(e)) play(m.move); } }))
    : [moveList()]));
  $('moves').hidden = !canMove;
  $('typed').hidden = !canMove;
  // While the machine plays on its own, its opponent is not the class.
  const opponent = busy() && state.progress.watching ? say('page.opponent.' + state.progress.opponent) : say('page.human');
  const turns = state.game.turns.map((t) => element('li', {
    text: (t.who === 'human' ? opponent : say('page.machine')) + ': ' + (t.words || '—'),
  }));
  $('turns').replaceChildren(...turns);
  $('turns-title').parentElement.hidden = turns.length === 0;
  renderEnd();
  renderTakeBack();
  renderStuck();
  renderMachine();
}

// The class's moves as one list to choose from, and the button that plays the choice.
function moveList() {
  const list = element('select', { id: 'move-list', 'aria-label': say('page.move_list') }, ...state.game.moves.map((m) => element('option', { value: m.move, text: m.words })));
  return element('span', { class: 'move-list' }, list,
    element('button', { type: 'button', id: 'play-listed', text: say('page.send'), onclick: () => play(list.value) }));
}

// Takes back the class's last move and the machine's answer (after the end of a game
// too, which then is no longer counted).
// At the end of a game it stands under New game, beside the result, so that the result
// and what the rule did keep the room under the board.
function renderTakeBack() {
  const can = teacher && !busy() && !state.game.stuck && state.game.turns.some((t) => t.who === 'human');
  $('take-back').hidden = !can;
  const home = state.game.end && !state.game.stuck && teacher && !busy() ? $('end-buttons') : $('take-back-home');
  if ($('take-back').parentElement !== home) home.append($('take-back'));
}

// How the game ended, for the machine; why it won when the class has no move left.
function resultText() {
  if (busy() && state.progress.watching) return say('page.end_watched.' + state.game.end);
  return say('page.end.' + (state.game.end === 'win' && state.game.blocked ? 'win_blocked' : state.game.end));
}

function renderEnd() {
  const end = $('end');
  end.hidden = !state.game.end || state.game.stuck;
  if (end.hidden) return;
  end.className = 'end ' + state.game.end;
  const lines = state.game.changes.map((c) => {
    const gained = c.after > c.before;
    return element('li', {},
      element('span', { class: gained ? 'gain' : 'loss', text: (gained ? '+' : '−') + number(Math.abs(c.after - c.before)) + ' ' }),
      say('page.change', { box: c.box, colour: c.colour.name, move: c.words, before: c.before, after: c.after })
        .replace(' → ', '\u00a0→\u00a0'));
  });
  const head = element('div', { class: 'row' }, element('p', { class: 'result', text: resultText() }));
  if (teacher && !busy()) {
    head.append(element('p', { class: 'end-buttons', id: 'end-buttons' },
      element('button', { id: 'new-game', class: 'primary', type: 'button', text: say('page.new_game'),
        onclick: () => act(() => api('POST', '/api/game/new')) })));
  }
  // The take-back button is moved, not made anew: it goes home before the end is redrawn.
  $('take-back-home').append($('take-back'));
  end.replaceChildren(head,
    element('p', { text: state.game.changes.length ? say('page.rule', { rule: say('page.settings.rule_name.' + state.game.rule) }) : say('page.no_change') }),
    element('ul', { id: 'changes', class: 'changes' }, ...lines));
}

function renderStuck() {
  const stuck = $('stuck');
  stuck.hidden = !state.game.stuck;
  if (!state.game.stuck) return;
  const turn = state.game.turns.find((t) => t.who === 'machine');
  stuck.replaceChildren(
    element('p', { class: 'why', text: say('page.stuck', { box: turn && turn.box !== null ? turn.box : 1 }) }),
    element('p', { text: say('page.stuck_help') }));
  if (teacher && !busy()) {
    stuck.append(element('p', { class: 'buttons' },
      element('button', { type: 'button', text: say('page.undo'), onclick: () => act(() => api('POST', '/api/undo')) }),
      element('button', { type: 'button', id: 'stuck-reset', text: say('page.reset'), onclick: () => askReset(true) }),
      element('button', { type: 'button', text: say('page.tab.settings'), onclick: () => showPanel('settings') })));
    // Fresh boxes forget every game: asked first, as in "The machine plays".
    if (state.resetAsked) {
      stuck.append(element('p', { class: 'confirm' }, element('span', { text: say('page.reset_confirm') + ' ' }),
        element('button', { type: 'button', id: 'stuck-reset-yes', text: say('page.yes'), onclick: () => { state.resetAsked = false; act(() => api('POST', '/api/reset')); } }),
        ' ',
        element('button', { type: 'button', id: 'stuck-reset-no', text: say('page.no'), onclick: () => askReset(false) })));
    }
  }
}

// Asks (or no longer asks) before resetting to fresh boxes, from the stuck panel.
function askReset(asked) {
  state.resetAsked = asked;
  renderStuck();
  $(asked ? 'stuck-reset-yes' : 'stuck-reset').focus();
}

// Tells a screen reader the machine's turn and the result, once each.
function announce(box, drawn) {
  const parts = [box === null ? '' : say('page.box', { id: box }) + '.', drawn];
  if (state.game.end && !state.game.stuck) parts.push(resultText());
  const text = parts.filter((p) => p).join(' ');
  const key = state.game.number + '/' + state.game.ply + '/' + text;
  if (key === state.announced) return;
  state.announced = key;
  $('said').textContent = text;
}

async function renderMachine() {
  const steps = $('steps');
  const turn = [...state.game.turns].reverse().find((t) => t.who === 'machine');
  if (!turn) {
    steps.replaceChildren(element('p', { class: 'waiting', id: 'drawn', text: say('page.waiting') }));
    return;
  }
  const step = (cls, key, ...content) => element('div', { class: 'step ' + cls }, element('h3', { text: say(key) }), ...content);
  if (turn.box === null) {
    announce(null, say('page.forced', { move: turn.words }));
    steps.replaceChildren(step('draw', 'page.step_draw', element('p', { class: 'drawn-text', id: 'drawn', text: say('page.forced', { move: turn.words }) })));
    return;
  }
  const labelBox = element('div', { class: 'label', id: 'machine-label' });
  // Resigning before anyone moved is not counted (see the stuck box): no loss is said.
  const drawnText = turn.move == null ? say(state.game.stuck ? 'page.empty_box' : 'page.resigned', { id: turn.box })
    : !uses(state.game.rule).beads ? say('page.first_wired', { move: turn.words })
    : say('page.drawn', { colour: turn.beads[turn.drawn].colour.name, move: turn.words });
  announce(turn.box, drawnText);
  steps.replaceChildren(
    step('box', 'page.step_box', element('p', { class: 'count', id: 'machine-box', text: say('page.box', { id: turn.box }) }), labelBox),
    step('turn', 'page.step_turn', element('p', { text: turn.turn })),
    step('beads-step', 'page.step_beads', element('ul', { class: 'beads' }, ...turn.beads.map((b, i) => beadLine(b, i === turn.drawn, turn.beads.length > MANY)))),
    step('draw', 'page.step_draw', element('p', { class: 'drawn-text', id: 'drawn', text: drawnText })));
  labelBox.innerHTML = await label(turn.box);
}

// ---- the memory -----------------------------------------------------------------

async function renderBoxes() {
  if (state.panel !== 'memory') return;
  if (state.pictures === null) state.pictures = await api('GET', '/api/pictures');
  const used = new Set(state.game.turns.filter((t) => t.who === 'machine' && t.box !== null).map((t) => t.box));
  const groups = new Map();
  state.boxes.forEach((b, i) => {
    if (!groups.has(b.move_number)) groups.set(b.move_number, []);
    groups.get(b.move_number).push([b, i]);
  });
  const sections = [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([n, list]) =>
    element('div', { class: 'group' }, element('h2', { text: say('page.move_number', { n }) }),
      element('div', { class: 'tiles' }, ...list.map(([b, i]) => tile(b, i, used)))));
  $('boxes').replaceChildren(...sections);
}

function tile(b, i, used) {
  let cls = 'tile';
  if (b.beads === 0) cls += ' empty';
  if (used.has(b.id)) cls += ' used';
  const pic = element('span', { class: 'pic' });
  pic.innerHTML = state.pictures[i];
  const counts = b.moves.map((m) => {
    const delta = m.count - m.before;
    const change = delta === 0 ? [] : [element('span', { class: delta > 0 ? 'gained' : 'lost', text: '(' + (delta > 0 ? '+' : '−') + number(Math.abs(delta)) + ')' })];
    return element('span', {}, dot(m.colour), ' ' + number(m.count), ...change);
  });
  return element('button', { class: cls, type: 'button', id: 'box-' + b.id, 'data-beads': b.beads,
    'data-counts': b.moves.map((m) => m.count).join(','), onclick: () => showBox(b.id) },
    pic, element('span', { class: 'name', text: say('page.box', { id: b.id }) }),
    element('span', { class: 'counts' }, ...counts));
}

// The box dialog: one box's label and beads.
async function showBox(id) {
  state.opener = focusPlace() || (() => $('box-' + id));
  const box = await api('GET', '/api/boxes/' + id);
  $('box-view-title').textContent = say('page.box', { id: box.id }) + ' · ' + box.tag;
  $('box-view-label').innerHTML = box.label;
  $('box-view-beads').replaceChildren(...box.moves.map((m) => beadLine(m, false)));
  $('box-view').hidden = false;
  $('box-view-close').focus();
}

function closeBox() {
  if ($('box-view').hidden) return;
  $('box-view').hidden = true;
  const back = state.opener && state.opener();
  if (back) back.focus();
}

// Tab and Shift+Tab go round the dialog's own controls while it is open.
function trapFocus(e) {
  if (e.key !== 'Tab' || $('box-view').hidden) return;
  const inside = [...$('box-view').querySelectorAll('button, [href], input, select, [tabindex="0"]')]
    .filter((n) => !n.disabled && n.offsetParent !== null);
  if (!inside.length) return;
  const [first, last] = [inside[0], inside[inside.length - 1]];
  if (!$('box-view').contains(document.activeElement)) { e.preventDefault(); first.focus(); }
  else if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
  else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
}

// ---- the score --------------------------------------------------------------------

function renderScore() {
  const text = say('page.totals', { games: state.score.games, wins: state.score.wins, draws: state.score.draws, losses: state.score.losses });
  $('totals').textContent = say('page.totals_short', { games: state.score.games, wins: state.score.wins, draws: state.score.draws, losses: state.score.losses });
  $('score-totals').textContent = text;
  $('train-totals').textContent = text;
  const svg = curve(state.score.curve);
  $('curve').innerHTML = svg;
  $('train-curve').innerHTML = svg.replace('id="curve-svg"', 'id="train-curve-svg"');
  const head = element('tr', {}, ...['score.game', 'score.winner', 'score.change', 'score.losses']
    .map((k) => element('th', { text: say(k) })));
  const rows = state.score.rows.map((r) => element('tr', {},
    element('td', { text: number(r.game) }),
    element('td', { text: say('page.winner.' + r.end) }),
    element('td', { text: r.change === null ? say('page.trained') : (r.change > 0 ? '+' : r.change < 0 ? '−' : '') + number(Math.abs(r.change)) }),
    element('td', { text: number(r.losses) })));
  $('score-table').replaceChildren(head, ...rows);
  $('undo').disabled = !state.score.can_undo || busy();
}

// The learning curve: the machine's losses so far against games played; on a log scale
// of games when asked (after thousands of watched games the first ones, where the
// machine learns, would be a vertical line).
function curve(points) {
  const [w, h, left, bottom, top, right] = [640, 330, 80, 60, 20, 30];
  const x0 = points[0][0];
  const x1 = Math.max(points[points.length - 1][0], x0 + 1);
  const y1 = Math.max(1, ...points.map((p) => p[1]));
  const log = $('curve-log').checked;
  const at = (g) => (log ? Math.log(1 + g - x0) / Math.log(1 + x1 - x0) : (g - x0) / (x1 - x0));
  const sx = (g) => left + at(g) * (w - left - right);
  const sy = (l) => h - bottom - l / y1 * (h - bottom - top);
  const line = points.map((p) => sx(p[0]).toFixed(1) + ',' + sy(p[1]).toFixed(1)).join(' ');
  const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" id="curve-svg" data-points="${points.length}">
<polyline points="${left},${top} ${left},${h - bottom} ${w - right},${h - bottom}" fill="none" stroke="#000" stroke-width="3"/>
<text x="${left - 8}" y="${sy(0) + 6}" font-size="20" text-anchor="end">0</text>
<text x="${left - 8}" y="${sy(y1) + 6}" font-size="20" text-anchor="end">${esc(number(y1))}</text>
<text x="${left}" y="${h - bottom + 24}" font-size="20">${esc(number(x0))}</text>
<text x="${w - right}" y="${h - bottom + 24}" font-size="20" text-anchor="end">${esc(number(x1))}</text>
<text x="${(w + left) / 2}" y="${h - 10}" font-size="20" text-anchor="middle">${esc(say('score.axis_games'))}</text>
<text x="22" y="${(h - bottom + top) / 2}" font-size="20" text-anchor="middle" transform="rotate(-90 22 ${(h - bottom + top) / 2})">${esc(say('score.axis_losses'))}</text>
<polyline points="${line}" fill="none" stroke="#c00000" stroke-width="5" stroke-linejoin="round"/>
</svg>`;
}

// ---- the machine playing on its own -------------------------------------------------

function paceText(i) {
  const pace = state.kit.paces[i];
  return pace.move !== undefined ? say('page.pace.move', { s: pace.move / 1000 }) : say('page.pace.games', { n: pace.games });
}

function renderTraining() {
  const p = state.progress;
  const watching = p.running && p.watching;
  const training = p.running && !p.watching;
  $('train-progress').hidden = !training;
  $('train-cancel').hidden = !training || !teacher;
  $('train-start').disabled = p.running;
  $('watch-start').hidden = p.running;
  for (const id of ['watch-pause', 'watch-step', 'watch-stop']) $(id).hidden = !watching || !teacher;
  $('watch-pause').textContent = say(p.paused ? 'page.resume' : 'page.pause');
  if (watching) $('pace').value = p.pace;
  $('pace-text').textContent = paceText(Number($('pace').value));
  $('train-bar').max = Math.max(p.total, 1);
  $('train-bar').value = p.done;
  $('train-text').textContent = say('page.training', { done: p.done, total: p.total });
  $('reset').disabled = p.running;
  // In the game panel: what plays, and (for the teacher) pause, one move, stop.
  const strip = $('watch-strip');
  strip.hidden = !p.running;
  if (!p.running) {
    strip.dataset.shape = '';
    return;
  }
  const what = watching
    ? say('page.watching', { opponent: say('page.opponent.' + p.opponent), done: p.done, pace: paceText(p.pace) })
    : say('page.training', { done: p.done, total: p.total });
  // Rebuilt only when its buttons change, so that a click never lands on a button
  // that is being replaced.
  const shape = [watching, p.paused, teacher].join();
  if (strip.dataset.shape !== shape) {
    strip.dataset.shape = shape;
    const parts = [element('span', { id: 'watch-what', class: 'watch-what' })];
    if (teacher && watching) {
      parts.push(
        element('button', { id: 'strip-pause', type: 'button', text: say(p.paused ? 'page.resume' : 'page.pause'), onclick: () => steer({ paused: !state.progress.paused }) }),
        element('button', { id: 'strip-step', type: 'button', text: say('page.step'), onclick: () => steer({ step: true }) }),
        element('button', { id: 'strip-stop', type: 'button', text: say('page.stop'), onclick: () => act(() => api('POST', '/api/train/cancel')) }));
    } else if (teacher) {
      parts.push(element('button', { type: 'button', text: say('page.cancel'), onclick: () => act(() => api('POST', '/api/train/cancel')) }));
    }
    strip.replaceChildren(...parts);
  }
  $('watch-what').textContent = what;
}

function steer(what) {
  return act(async () => { state.progress = await api('POST', '/api/watch/steer', what); });
}

// ---- settings: the teacher's form; view-only screens show them as text ---------------

const REWARDS = ['win', 'draw', 'loss'];

// What `rule` reads of the settings: `beads` (the machine draws beads) and `reward`.
const uses = (rule) => state.kit.rule_uses[rule];

// An input that takes the numbers of `range` ([least, most], as the machine checks them).
function bounded(input, [least, most]) {
  input.min = least;
  input.max = most;
  return input;
}

async function loadSettings() {
  state.settings = await api('GET', '/api/settings');
  if (!state.editing) {
    fillSettings(state.settings.now);
    for (const id of ['train-opponent', 'watch-opponent']) $(id).value = state.settings.now.opponent;
  }
  changed('settings');
}

// How often the opponent emptied a fresh machine's first box in the server's trial runs
// of `games` games (at most as long as theirs); empty when it never did.
function riskText(opponent, games) {
  if (!state.settings || !state.settings.risks || !opponent) return '';
  const r = state.settings.risks;
  const n = Math.max(1, Math.min(games || r.games, r.games));
  const k = (r.emptied[opponent] || []).filter((g) => g <= n).length;
  return k === 0 ? '' : say('page.risk', { opponent: say('page.opponent.' + opponent), k, runs: r.runs, games: n });
}

function showRisk(id, text) {
  $(id).textContent = text;
  $(id).hidden = text === '';
}

function renderRisks() {
  showRisk('train-warning', riskText($('train-opponent').value, Number($('train-games').value)));
  showRisk('watch-warning', riskText($('watch-opponent').value));
  showRisk('settings-risk', riskText($('settings-opponent').value));
}

// The form filled with a set of settings (now, or the kit's).
function fillSettings(shown) {
  $('beads-fields').replaceChildren(...shown.beads.map((b) => {
    const input = bounded(element('input', { type: 'number', step: 1,
      id: 'beads-' + b.move_number, 'data-move': b.move_number, 'data-input': 'beads.' + b.move_number }), state.settings.beads_range);
    input.value = b.beads;
    return element('div', { class: 'field' },
      element('label', {}, say('page.settings.move', { n: b.move_number }), input),
      element('p', { class: 'field-error', 'data-field': 'beads.' + b.move_number, hidden: '' }));
  }));
  $('reward-fields').replaceChildren(...REWARDS.map((which) => {
    const input = bounded(element('input', { type: 'number', step: 1,
      id: 'reward-' + which, 'data-input': 'reward.' + which }), state.settings.reward_range);
    input.value = shown.reward[which];
    return element('div', { class: 'field' },
      element('label', {}, say('page.settings.' + which), input),
      element('p', { class: 'field-error', 'data-field': 'reward.' + which, hidden: '' }));
  }));
  $('settings-rule').replaceChildren(...state.settings.rules.map((r) =>
    element('option', { value: r, text: say('page.settings.rule_name.' + r) })));
  $('settings-rule').value = shown.rule;
  $('settings-opponent').value = shown.opponent;
  showRule();
  clearFieldErrors();
}

// The rule's few words, and the fields of the settings it reads (the kit's `rule_uses`).
function showRule() {
  const rule = $('settings-rule').value;
  $('rule-about').textContent = say('page.settings.rule_about.' + rule);
  $('reward-fields').hidden = !uses(rule).reward;
  $('beads-fields').hidden = !uses(rule).beads;
  $('no-beads').hidden = uses(rule).beads;
}

// What the form asks for: only what the rule reads (hidden fields change nothing).
function askedSettings() {
  const rule = $('settings-rule').value;
  const asked = { rule, opponent: $('settings-opponent').value };
  if (uses(rule).beads) {
    asked.beads = {};
    for (const input of $('beads-fields').querySelectorAll('input')) asked.beads[input.dataset.move] = input.value;
  }
  if (uses(rule).reward) {
    asked.reward = {};
    for (const which of REWARDS) asked.reward[which] = $('reward-' + which).value;
  }
  return asked;
}

// Whether the form asks for another machine (fresh boxes), not only another opponent.
function remakes(asked) {
  const now = state.settings.now;
  return asked.rule !== now.rule
    || (asked.beads !== undefined && now.beads.some((b) => Number(asked.beads[b.move_number]) !== b.beads))
    || (asked.reward !== undefined && REWARDS.some((w) => Number(asked.reward[w]) !== now.reward[w]));
}

function clearFieldErrors() {
  for (const p of document.querySelectorAll('#settings-form .field-error')) p.hidden = true;
  for (const input of document.querySelectorAll('#settings-form .wrong')) input.classList.remove('wrong');
}

// A refusal shown at its field (or, for the beads as a whole, under them).
function showFieldError(field, message) {
  const at = document.querySelector(`#settings-form .field-error[data-field="${field}"]`)
    || document.querySelector('#settings-form .field-error[data-field="beads"]');
  at.textContent = message;
  at.hidden = false;
  const input = document.querySelector(`#settings-form [data-input="${field}"]`);
  if (input) { input.classList.add('wrong'); input.focus(); }
}

async function applySettings() {
  $('settings-confirm').hidden = true;
  $('error').hidden = true;
  clearFieldErrors();
  try {
    const done = await api('POST', '/api/settings', askedSettings());
    state.editing = false;
    $('settings-done').textContent = say(done.fresh ? 'page.settings.fresh' : 'page.settings.kept');
    await loadSettings();
  } catch (e) {
    if (e.refused && e.field) showFieldError(e.field, e.message);
    else showError(e.refused ? e.message : say(transport.noAnswer));
  }
  await refresh(true).catch(() => {});
}

// The settings panel: the settings as words on a view-only screen, and the opponents'
// warnings.
function renderSettings() {
  renderSettingsView();
  renderRisks();
}

// The settings on a view-only screen: words, no controls.
function renderSettingsView() {
  if (teacher || state.settings === null) return;
  const now = state.settings.now;
  const line = (key, text) => element('p', {}, element('strong', { text: say(key) + ': ' }), text);
  const parts = [
    element('h2', { text: say('page.settings.now') }),
    line('page.settings.rule', say('page.settings.rule_name.' + now.rule) + '. ' + say('page.settings.rule_about.' + now.rule)),
  ];
  if (uses(now.rule).beads) {
    parts.push(line('page.settings.beads', now.beads.map((b) =>
      say('page.settings.move', { n: b.move_number }) + ': ' + number(b.beads)).join(' · ')));
  }
  if (uses(now.rule).reward) {
    const signed = (n) => (n > 0 ? '+' : n < 0 ? '−' : '') + number(Math.abs(n));
    parts.push(line('page.settings.reward', REWARDS.map((w) =>
      say('page.settings.' + w) + ': ' + signed(now.reward[w])).join(' · ')));
  }
  parts.push(line('page.settings.opponent', say('page.opponent.' + now.opponent)));
  $('settings-view').replaceChildren(...parts);
}

function setUpSettings() {
  $('settings-form').hidden = !teacher;
  $('settings-view').hidden = teacher;
  const text = {
    'settings-hint': 'page.settings.hint', 'settings-beads-title': 'page.settings.beads',
    'no-beads': 'page.settings.no_beads', 'settings-rule-title': 'page.settings.rule',
    'settings-opponent-title': 'page.settings.opponent', 'settings-apply': 'page.settings.apply',
    'settings-kit': 'page.settings.kit', 'settings-question': 'page.settings.confirm',
    'settings-yes': 'page.settings.yes', 'settings-no': 'page.no',
  };
  for (const [id, key] of Object.entries(text)) $(id).textContent = say(key);
  $('settings-opponent').replaceChildren(...state.kit.opponents.map((o) => element('option', { value: o, text: say('page.opponent.' + o) })));
  $('settings-form').addEventListener('input', (e) => {
    state.editing = true;
    $('settings-done').textContent = '';
    if (e.target.id === 'settings-rule') showRule();
    if (e.target.id === 'settings-opponent') renderRisks();
  });
  $('settings-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if (remakes(askedSettings())) $('settings-confirm').hidden = false;
    else applySettings();
  });
  $('settings-yes').addEventListener('click', applySettings);
  $('settings-no').addEventListener('click', () => { $('settings-confirm').hidden = true; });
  $('settings-kit').addEventListener('click', () => {
    state.editing = true;
    fillSettings(state.settings.kit);
    $('settings-done').textContent = '';
  });
  for (const id of ['train-opponent', 'train-games', 'watch-opponent']) $(id).addEventListener('input', renderRisks);
}

// ---- the beads as a file: the state file of `matchbox play --state` and `serve --state`

async function exportBeads() {
  const { text } = await api('GET', '/api/state');
  const link = element('a', {
    href: URL.createObjectURL(new Blob([text], { type: 'application/json' })),
    download: state.kit.state ? state.kit.state.split(/[\\/]/).pop() : 'state.json',
  });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
}

// Opens a state file chosen in the static site in place of the beads on the screen. A
// refusal says why and that nothing changed; for a file changed by hand, the teacher
// may open it all the same (what `--accept-edited-state` does on the command line).
async function openBeads(file, anyway) {
  try {
    await transport.load(file, anyway);
  } catch (e) {
    if (!e.refused) throw e;
    if (e.edited) {
      showError(e.message + ' ' + say('page.file.ask'), { words: say('page.file.open_anyway'), run: () => openBeads(file, true) });
    } else {
      showError(e.message + ' ' + say('page.file.kept'));
    }
    return;
  }
  // Another machine: its labels and settings, not the last one's.
  state.labels.clear();
  state.editing = false;
  if (state.settings !== null) await loadSettings();
  if (anyway) showNote(say('page.file.opened_edited', { file: file.name }));
}

// ---- panels ---------------------------------------------------------------------------

const PANELS = ['game', 'memory', 'score', 'train', 'settings'];

// Each panel's render: the panel drawn again from the state. (The train panel's also
// draws the run's strip over the game panel; the settings panel's, the opponents'
// warnings in the train panel's forms.)
const RENDER = {
  game: renderGame,
  memory: renderBoxes,
  score: renderScore,
  train: renderTraining,
  settings: renderSettings,
};

// The state changed: each panel it touches is drawn again.
function changed(...panels) {
  for (const name of panels) RENDER[name]();
}

function renderPanels() {
  for (const name of PANELS) {
    $('panel-' + name).hidden = name !== state.panel;
    const tab = $('tab-' + name);
    tab.classList.toggle('current', name === state.panel);
  }
  if (state.panel === 'memory') renderBoxes();
  if (state.panel === 'settings' && state.settings === null) loadSettings().catch((e) => showError(e.message));
}

function showPanel(name) {
  state.panel = name;
  renderPanels();
  if (!teacher) return;
  state.askedPanel = name;
  api('POST', '/api/panel', { panel: name }).catch((e) => {
    state.askedPanel = null;
    showError(e.message);
  });
}

// ---- keeping up to date -----------------------------------------------------------------

// The loud banner while the beads are not kept (the server's file, the browser's
// storage); it goes when a save succeeds.
function showUnsaved() {
  const text = state.game && state.game.unsaved ? say('page.save.' + state.game.unsaved, { file: state.kit.state || '' })
    : state.browserUnkept === 'full' ? say('page.save.browser')
    : state.browserUnkept === 'blocked' ? say('page.save.browser_blocked') : '';
  $('unsaved').textContent = text;
  $('unsaved').hidden = text === '';
}

async function refresh(force) {
  // A look at the game alone tells whether anything changed.
  if (!force && (await api('GET', '/api/game')).version === state.version) return;
  // The game, the boxes, the score and the run of one moment: asked for apart, a run
  // ending between the answers would mark the boxes of one game beside another's.
  const now = await api('GET', '/api/now');
  // New settings make a new machine: its labels print other starting beads.
  const remade = state.game !== null && now.game.machine !== state.game.machine;
  Object.assign(state, { game: now.game, boxes: now.boxes, score: now.score, progress: now.train });
  state.version = state.game.version;
  if (remade) state.labels.clear();
  // The settings shown follow the server's (a view-only screen's at every change).
  if (state.settings !== null && (remade || (!teacher && state.game.panel === 'settings'))) await loadSettings();
  // Every screen shows the teacher's panel (this one's own choice while it is asked).
  const shown = PANELS.includes(state.game.panel) ? state.game.panel : 'game';
  if (state.askedPanel === null || shown === state.askedPanel) {
    state.askedPanel = null;
    state.panel = shown;
  }
  showUnsaved();
  const focus = focusPlace();
  changed('game', 'score', 'train');
  renderPanels();
  keepFocus(focus);
  document.body.dataset.version = state.version;
}

// Where the keyboard's focus is, as what finds it again once the page is redrawn (the
// move buttons and the tiles are made anew): a function giving the element, or null.
function focusPlace() {
  const at = document.activeElement;
  if (!at || at === document.body) return null;
  const { id } = at;
  const move = at.dataset ? at.dataset.move : undefined;
  if (move !== undefined) return () => [...document.querySelectorAll('#moves [data-move]')].find((n) => n.dataset.move === move);
  return id ? () => $(id) : null;
}

// Puts the focus back where it was, or on the nearest control that does the same job
// (the next move, New game), so that a keyboard user is never sent back to the page's top.
function keepFocus(place) {
  const usable = (n) => n && !n.disabled && n.offsetParent !== null && n.tabIndex >= 0;
  // A control hidden by the redraw (New game) or a board with nothing left to play
  // has lost the focus too.
  if (place === null || usable(document.activeElement)) return;
  const found = [place(), ...['#moves button.move', '#move-list', '#board[tabindex="0"]', '#new-game', '#take-back']
    .map((css) => document.querySelector(css))].find(usable);
  if (found) found.focus();
}

// Watchers (and a second tab) follow the teacher's screen; faster while the machine plays.
async function follow() {
  try {
    await refresh(false);
    if (busy()) state.progress = await api('GET', '/api/train');
    if (busy()) changed('train');
  } catch (e) { /* the next look tries again */ }
  setTimeout(follow, busy() ? 250 : 1000);
}

function setUp() {
  document.title = state.kit.name;
  $('kit-name').textContent = state.kit.name;
  $('view-only').textContent = say('page.view_only');
  $('view-only').hidden = teacher;
  $('tabs').replaceChildren(...PANELS.map((name) => element('button', {
    id: 'tab-' + name, type: 'button', text: say('page.tab.' + name), onclick: () => showPanel(name),
  })));
  // The view-only screens follow the teacher's panel and have no controls.
  if (!teacher) {
    $('tabs').querySelectorAll('button').forEach((b) => { b.disabled = true; });
    document.querySelectorAll('.train-controls').forEach((n) => { n.hidden = true; });
  }
  const text = {
    'type-label': 'page.type_move', send: 'page.send',
    'turns-title': 'page.turns', 'memory-hint': 'page.memory_hint', 'curve-title': 'score.chart',
    'train-title': 'page.train', 'train-games-label': 'page.train_games', 'train-opponent-label': 'page.train_opponent',
    'train-start': 'page.start', 'train-cancel': 'page.cancel',
    'watch-title': 'page.watch', 'watch-hint': 'page.watch_hint', 'watch-opponent-label': 'page.train_opponent',
    'pace-label': 'page.pace', 'watch-start': 'page.watch_start', 'watch-step': 'page.step', 'watch-stop': 'page.stop',
    undo: 'page.undo', 'take-back': 'page.take_back', reset: 'page.reset', 'reset-question': 'page.reset_confirm', 'reset-yes': 'page.yes',
    'reset-no': 'page.no', 'curve-log-text': 'page.curve_log', 'box-view-close': 'page.close', export: 'page.export', 'import-text': 'page.import',
  };
  for (const [id, key] of Object.entries(text)) $(id).textContent = say(key);
  $('error-close').title = say('page.close');
  $('error-close').setAttribute('aria-label', say('page.close'));
  $('tabs').setAttribute('aria-label', say('page.tabs'));
  $('board').setAttribute('aria-label', say('page.board_keys'));
  bounded($('train-games'), state.kit.train_games);
  const options = () => state.kit.opponents.map((o) => element('option', { value: o, text: say('page.opponent.' + o) }));
  $('train-opponent').replaceChildren(...options());
  $('watch-opponent').replaceChildren(...options());
  // A fresh machine may lose every bead of its first box to the perfect player: the
  // page suggests the random one, and says what happens then.
  $('train-opponent').value = 'random';
  $('watch-opponent').value = 'random';
  $('pace').max = state.kit.paces.length - 1;
  $('pace').addEventListener('input', () => {
    $('pace-text').textContent = paceText(Number($('pace').value));
    if (busy() && state.progress.watching) steer({ pace: Number($('pace').value) });
  });
  $('typed').addEventListener('submit', (e) => {
    e.preventDefault();
    const typed = $('typed-move').value.trim().toLowerCase().replace(/\s+/g, ' ');
    // The notation or the kit's words, whole or before the comma (`take 2`, `weź 2`).
    const fits = (w) => w.toLowerCase() === typed || w.toLowerCase().split(',')[0] === typed;
    const found = state.game.moves.find((m) => fits(m.move) || fits(m.words));
    $('typed-move').value = '';
    play(found ? found.move : typed);
  });
  $('train-form').addEventListener('submit', (e) => {
    e.preventDefault();
    act(async () => {
      state.progress = await api('POST', '/api/train', { games: Number($('train-games').value), opponent: $('train-opponent').value });
    });
  });
  $('watch-form').addEventListener('submit', (e) => {
    e.preventDefault();
    act(async () => {
      state.progress = await api('POST', '/api/watch', { opponent: $('watch-opponent').value, pace: Number($('pace').value) });
      showPanel('game');
    });
  });
  $('watch-pause').addEventListener('click', () => steer({ paused: !state.progress.paused }));
  $('watch-step').addEventListener('click', () => steer({ step: true }));
  $('watch-stop').addEventListener('click', () => act(() => api('POST', '/api/train/cancel')));
  $('train-cancel').addEventListener('click', () => act(() => api('POST', '/api/train/cancel')));
  $('undo').addEventListener('click', () => act(() => api('POST', '/api/undo')));
  $('take-back').addEventListener('click', () => act(async () => { state.game = await api('POST', '/api/game/back'); }));
  $('reset').addEventListener('click', () => { $('reset-confirm').hidden = false; });
  $('reset-no').addEventListener('click', () => { $('reset-confirm').hidden = true; });
  $('reset-yes').addEventListener('click', () => {
    $('reset-confirm').hidden = true;
    act(() => api('POST', '/api/reset'));
  });
  $('export').addEventListener('click', () => act(exportBeads));
  $('curve-log').addEventListener('change', () => changed('score'));
  // Only where the beads are the page's own (the static site): the server reads its
  // file at start (`matchbox serve --state`).
  $('import-button').hidden = !transport.load;
  $('import').addEventListener('change', () => {
    const file = $('import').files[0];
    $('import').value = '';
    if (file) act(() => openBeads(file, false));
  });
  // The static site's problems, and its storage when it cannot keep the beads.
  if (transport.listen) {
    transport.listen((key, why) => showError(say(key, { why })), (unkept) => {
      state.browserUnkept = unkept;
      showUnsaved();
    }, (tabs) => {
      // Which tab keeps the beads, with the lesson open in more than one: said where a
      // view-only screen says whose it follows.
      $('view-only').textContent = say(tabs);
      $('view-only').hidden = false;
    });
  }
  // The static site's way back to the kit designer.
  if (transport.designer) {
    $('designer').href = transport.designer;
    $('designer').textContent = say('page.designer');
    $('designer').hidden = false;
  }
  $('error-close').addEventListener('click', () => { $('error').hidden = true; });
  setUpSettings();
  $('box-view-close').addEventListener('click', closeBox);
  $('box-view').addEventListener('click', (e) => { if (e.target === $('box-view')) closeBox(); });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') closeBox(); trapFocus(e); });
  $('board').addEventListener('keydown', boardKey);
  $('board').addEventListener('focus', markCursor);
  $('board').addEventListener('blur', markCursor);
  $('board').addEventListener('click', () => { if (state.picked.length) { state.picked = []; drawSpots(); } });
}

async function start() {
  state.kit = await api('GET', '/api/kit');
  useWords(state.kit.language, state.kit.words);
  document.documentElement.lang = state.kit.language;
  setUp();
  // The teacher's forms start from the saved opponent, with its warning.
  if (teacher) await loadSettings();
  await refresh(true);
  document.body.dataset.ready = 'yes';
  setTimeout(follow, 1000);
}

start().catch((e) => showError(e.message));
