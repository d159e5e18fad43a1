// The kit designer: a preset or a game, every kit.yaml setting as a field, and beside
// them the kit as the engine makes it (one label as it will print, the figures, the
// box list). The page knows no game: its form, its choices and its words come from the
// engine's catalogue (every key a kit can take, and the words of every language), and
// a mistake comes back as data (its place, its key, its words), shown at its field.
import { engine } from './engine.js';
import { zip } from './zip.js';
import { $, element, number, say, sayCount, useWords } from './page.js';

const STORE = 'matchbox.designer';
const LABEL_DPI = 300;
const PICTURE_DPI = 110;
// The form's parts, in the order the page shows them; the engine puts each key in one.
const SECTIONS = ['game', 'paper', 'beads', 'look'];
// Kinds whose field takes the section's whole width.
const WIDE = ['text', 'list', 'map', 'beads', 'palette', 'label', 'reward'];

const state = {
  language: 'en',
  catalogue: null,
  // Where the kit starts: a preset, or a game's own defaults.
  preset: null,
  game: null,
  // The settings the teacher changed, as kit.yaml values.
  changed: {},
  // The kit's language follows the page's until the teacher sets it.
  languageSet: false,
  box: 0,
  design: null,
  files: null,
  asked: 0,
  // Whether the browser keeps the choices (its storage may be full or switched off).
  remembers: true,
};

// The page's words in `language` (the engine's `designer.*` strings), else English.
function useLanguage(language) {
  state.language = language;
  const words = state.catalogue.words;
  useWords(language, words[language], words.en);
}

// A size as the page's language writes it, to one decimal at most (63,5 × 38,1 mm).
const millimetres = (x) => new Intl.NumberFormat(state.language, { maximumFractionDigits: 1 }).format(x);

// The keys a kit of `game` takes, as the engine describes them, kit.yaml's own first.
function keysOf(game) {
  return state.catalogue.keys.filter((k) => k.games.includes(game));
}

const describedKey = (name) => state.catalogue.keys.find((k) => k.name === name);

// A key's words in the page's language, as the engine describes them (else English).
const keyWords = (spec) => spec.words[state.language] || spec.words.en;

// A key of the game alone (not of every kit): a preset's cannot be taken out of it.
const ownKey = (k) => k.games.length < state.catalogue.games.length;

// ---- kit.yaml: written from the settings, one key a line --------------------------

const PLAIN = /^[\p{L}\p{N}][\p{L}\p{N} _.\-']*$/u;
const RESERVED = /^(true|false|yes|no|on|off|null|~|[-+.\d].*)$/i;

function yamlValue(value) {
  if (Array.isArray(value)) return `[${value.map(yamlValue).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const key = (k) => (/^[A-Za-z0-9_]+$/.test(k) ? k : JSON.stringify(k));
    return `{${Object.entries(value).map(([k, v]) => `${key(k)}: ${yamlValue(v)}`).join(', ')}}`;
  }
  if (typeof value === 'string') {
    return PLAIN.test(value) && !RESERVED.test(value) && value.trim() === value ? value : JSON.stringify(value);
  }
  return String(value);
}

// The kit.yaml text of the current choices, one key a line.
function kitYaml() {
  const lines = state.preset ? [['preset', state.preset]] : [['game', state.game]];
  for (const { name } of keysOf(state.game)) {
    if (name in state.changed) lines.push([name, state.changed[name]]);
  }
  return lines.map(([key, value]) => `${key}: ${yamlValue(value)}\n`).join('');
}

// ---- the fields: a setting's value shown, and read back ----------------------------

const numberOrText = (text) => (/^-?\d+$/.test(text.trim()) ? Number(text) : text.trim());
const listOf = (text) => text.split(/[,\s]+/).filter(Boolean).map(numberOrText);

function show(kind, value) {
  if (value === undefined || value === null) return '';
  switch (kind) {
    case 'list': return value.join(', ');
    case 'beads': return typeof value === 'object' ? Object.entries(value).map(([k, v]) => `${k}: ${v}`).join(', ') : String(value);
    case 'map': return Object.entries(value).map(([k, v]) => `${k}: ${v.join(', ')}`).join('; ');
    default: return String(value);
  }
}

function read(kind, text) {
  switch (kind) {
    case 'number': return numberOrText(text);
    case 'list': return listOf(text);
    case 'beads': {
      if (!text.includes(':')) return numberOrText(text);
      const map = {};
      for (const pair of text.split(',')) {
        const [k, v] = pair.split(':').map((part) => part.trim());
        map[k] = numberOrText(v ?? '');
      }
      return map;
    }
    case 'map': {
      const map = {};
      for (const part of text.split(';').filter((p) => p.trim())) {
        const [k, v] = part.split(':');
        map[k.trim()] = listOf(v ?? '');
      }
      return map;
    }
    default: return text;
  }
}

// A setting's field: its name as the label of its control (a group's, for a control
// of several inputs), its hint, and where its mistake is said.
function field(spec, control) {
  const key = spec.name;
  const words = keyWords(spec);
  const hint = words.hint ? element('small', { class: 'hint', id: `hint-${key}`, text: words.hint }) : null;
  const error = element('p', { class: 'field-error', id: `error-${key}`, hidden: true });
  const described = [hint && `hint-${key}`, `error-${key}`].filter(Boolean).join(' ');
  const wide = WIDE.includes(spec.kind) || (spec.kind === 'choice' && spec.choices.some((c) => words.choices[c].length > 24));
  const attrs = { class: `field ${spec.kind}${wide ? ' wide' : ''}`, id: `field-${key}`, 'data-key': key };
  if (spec.kind === 'flag') {
    control.setAttribute('aria-describedby', described);
    return element('div', attrs, element('label', { class: 'flag-label' }, control,
      element('span', { class: 'field-name', text: words.name })), hint, error);
  }
  const group = ['reward', 'palette', 'label'].includes(spec.kind);
  const name = group
    ? element('span', { class: 'field-name', id: `name-${key}`, text: words.name })
    : element('label', { class: 'field-name', for: `input-${key}`, text: words.name });
  if (group) {
    control.setAttribute('role', 'group');
    control.setAttribute('aria-labelledby', `name-${key}`);
  }
  control.setAttribute('aria-describedby', described);
  return element('div', attrs, name, control, hint, error);
}

// A setting changed by the teacher.
function set(key, value) {
  state.changed[key] = value;
  if (key === 'language') state.languageSet = true;
  // A game's own keys cannot be taken out of a preset (a pile's size, its heaps):
  // changing one starts a kit of the teacher's own from the current settings.
  if (state.preset && ownKey(describedKey(key)) && state.design) {
    const { name, game, ...settings } = state.design.settings;
    state.changed = { ...settings, ...state.changed };
    state.preset = null;
    markCards();
  }
  refresh();
}

function control(spec) {
  const key = spec.name;
  const id = `input-${key}`;
  switch (spec.kind) {
    case 'flag':
      return element('input', { type: 'checkbox', id, onchange: (e) => set(key, e.target.checked) });
    case 'choice':
      return element('select', { id, onchange: (e) => set(key, e.target.value) },
        ...spec.choices.map((c) => element('option', { value: c, text: keyWords(spec).choices[c] })));
    case 'label':
      return labelControl();
    case 'reward':
      return element('div', { class: 'triple', id },
        ...['win', 'draw', 'loss'].map((part) => element('input', {
          type: 'number', ...spec.range, 'data-part': part, 'aria-label': say(`reward.${part}`),
          oninput: () => debounced(() => set(key, Object.fromEntries([...$(id).querySelectorAll('input')]
            .map((i) => [i.dataset.part, numberOrText(i.value)])))),
        })));
    case 'palette':
      return element('div', { class: 'palette', id });
    default:
      // A number's field takes the engine's range (its bounds, as a number field
      // names them; a bound by the rest of the kit gets its most from each design), so
      // that its arrows stay within it; a list's, how many numbers it takes.
      return element('input', {
        id, ...(spec.kind === 'number' ? { type: 'number', ...spec.range, ...(spec.bound && least(spec.bound)) } : { type: 'text' }),
        ...(spec.count && { pattern: listPattern(spec.count) }),
        oninput: (e) => debounced(() => set(key, read(spec.kind, e.target.value))),
      });
  }
}

function labelControl() {
  const c = state.catalogue;
  const select = element('select', { id: 'input-label', 'aria-labelledby': 'name-label', onchange: labelChanged },
    element('optgroup', { label: say('label.cut') },
      ...c.labels.map((l) => element('option', { value: l.name, text: say(`label.${l.name}`) }))),
    element('optgroup', { label: say('label.stickers') },
      ...c.stickers.map((s) => element('option', {
        value: s.code,
        text: say('label.sheet', { code: s.code, across: s.across, down: s.down, w: millimetres(s.label.width_mm), h: millimetres(s.label.height_mm), paper: say(`value.${s.paper}`) }),
      }))),
    element('option', { value: 'custom', text: say('label.custom') }));
  const part = (name) => element('label', { class: 'size' }, element('span', { text: say(`field.${name}`) }),
    element('input', { type: 'number', id: `input-${name}`, step: '0.1', oninput: () => debounced(labelChanged) }));
  return element('div', { class: 'label-choice' }, select, element('div', { id: 'label-size', class: 'pair', hidden: true }, part('width_mm'), part('height_mm')));
}

function labelChanged() {
  const chosen = $('input-label').value;
  $('label-size').hidden = chosen !== 'custom';
  if (chosen !== 'custom') return set('label', chosen);
  const mm = (part) => numberOrText($(`input-${part}`).value || '0');
  set('label', { width_mm: mm('width_mm'), height_mm: mm('height_mm') });
}

// A bound by the rest of the kit as a number field names it now: its least (its most
// comes with each design, `max_from`).
const least = ({ max_from: _, ...bound }) => bound;

// A list of from `min` to `max` whole numbers, as `listOf` reads them.
const listPattern = ({ min, max }) => `[,\\s]*\\d+(?:[,\\s]+\\d+){${Math.max(min - 1, 0)},${max - 1}}[,\\s]*`;

let timer = null;
function debounced(action) {
  clearTimeout(timer);
  timer = setTimeout(action, 350);
}

function buildForm() {
  const form = $('form');
  form.replaceChildren();
  const keys = keysOf(state.game);
  for (const section of SECTIONS) {
    const inSection = keys.filter((k) => k.section === section);
    if (!inSection.length) continue;
    form.append(element('fieldset', { class: `section ${section}` },
      element('legend', { text: say(`section.${section}`) }),
      ...inSection.map((k) => field(k, control(k)))));
  }
  form.append(element('p', { class: 'form-foot' }, element('button', { type: 'button', class: 'quiet', text: say('reset'), onclick: resetToPreset })));
}

// Shows the kit's settings in the fields the teacher is not typing in.
function fillForm(settings) {
  for (const spec of keysOf(state.game)) {
    const key = spec.name;
    const box = $(`field-${key}`);
    if (!box || box.contains(document.activeElement)) continue;
    const value = settings[key];
    // A key that applies under one value of another (`reward` under one rule) only then.
    box.hidden = Boolean(spec.applies) && settings[spec.applies[0]] !== spec.applies[1];
    if (spec.bound) $(`input-${key}`).max = state.design[spec.bound.max_from];
    if (spec.kind === 'flag') $(`input-${key}`).checked = Boolean(value);
    else if (spec.kind === 'reward') {
      for (const input of $(`input-${key}`).querySelectorAll('input')) input.value = value ? value[input.dataset.part] : '';
    } else if (spec.kind === 'palette') fillPalette(value || []);
    else if (spec.kind === 'label') {
      const custom = typeof value === 'object';
      $('input-label').value = custom ? 'custom' : value;
      $('label-size').hidden = !custom;
      if (custom) {
        $('input-width_mm').value = value.width_mm;
        $('input-height_mm').value = value.height_mm;
      }
    } else if (key in state.changed && typeof state.changed[key] === 'string' && spec.kind !== 'choice') {
      // What the teacher wrote stays as written, right or wrong.
    } else $(`input-${key}`).value = show(spec.kind, value);
  }
  // A sticker sheet is cut from its own paper.
  const sheet = state.catalogue.stickers.find((s) => s.code === settings.label);
  if ($('input-paper')) $('input-paper').disabled = Boolean(sheet);
}

// A colour's name in the page's language where it is one of the named colours; what
// the teacher wrote otherwise.
const colourName = (name) => {
  const said = say(`colour.${name}`);
  return said === `colour.${name}` ? name : said;
};

function fillPalette(colours) {
  const box = $('input-palette');
  const rows = colours.map((c, i) => element('div', { class: 'colour', 'data-name': c.name },
    element('input', { type: 'color', value: c.rgb, 'aria-label': say('palette.colour', { name: colourName(c.name) }), oninput: paletteChanged }),
    element('input', { type: 'text', value: colourName(c.name), class: 'colour-name', 'aria-label': say('palette.name', { n: i + 1 }), oninput: () => debounced(paletteChanged) }),
    element('button', { type: 'button', class: 'quiet small', text: '×', title: say('palette.remove'), 'aria-label': `${say('palette.remove')}: ${colourName(c.name)}`, disabled: colours.length < 2,
      onclick: () => { box.children[i].remove(); paletteChanged(); } })));
  box.replaceChildren(...rows, element('button', {
    type: 'button', class: 'quiet small', text: `+ ${say('palette.add')}`,
    onclick: () => set('palette', [...readPalette(), { name: `colour${colours.length + 1}`, rgb: '#808080' }]),
  }));
}

// The palette as kit.yaml writes it: a named colour shown in the page's words keeps
// its own name while the teacher leaves the words as shown.
function readPalette() {
  return [...$('input-palette').querySelectorAll('.colour')].map((row) => {
    const [rgb, name] = row.querySelectorAll('input');
    const kept = row.dataset.name;
    return { name: name.value === colourName(kept) ? kept : name.value, rgb: rgb.value };
  });
}

function paletteChanged() {
  set('palette', readPalette());
}

function resetToPreset() {
  state.changed = state.languageSet ? { language: state.changed.language } : { language: state.language };
  if (!state.preset) state.preset = gameOf(state.game).presets[0]?.name ?? null;
  markCards();
  refresh();
}

// ---- the machines: one card a preset, with its first label --------------------------

const gameOf = (name) => state.catalogue.games.find((g) => g.name === name);

function buildGames() {
  const games = $('games');
  games.replaceChildren();
  for (const g of state.catalogue.games) {
    const cards = g.presets.map((p) => element('button', {
      type: 'button', class: 'card', 'data-preset': p.name, onclick: () => choose(p.name, g.name),
    }, element('img', { alt: '', class: 'picture' }), element('b', { class: 'card-name', text: p.name }), element('small', { text: say(`preset.${p.name}`) })));
    cards.push(element('button', { type: 'button', class: 'card own', 'data-own': g.name, onclick: () => choose(null, g.name) },
      element('b', { class: 'card-name', text: say('game.own', { game: say(`game.${g.name}`) }) })));
    games.append(element('div', { class: 'game' }, element('h3', { text: say(`game.${g.name}`) }), element('div', { class: 'cards' }, ...cards)));
  }
  markCards();
}

function markCards() {
  for (const card of document.querySelectorAll('.card')) {
    const mine = state.preset ? card.dataset.preset === state.preset : card.dataset.own === state.game;
    card.classList.toggle('chosen', mine);
    card.setAttribute('aria-pressed', String(mine));
  }
}

function choose(preset, game) {
  const sameGame = game === state.game;
  state.preset = preset;
  state.game = game;
  state.changed = state.languageSet ? { language: state.changed.language } : { language: state.language };
  state.box = 0;
  if (!sameGame) buildForm();
  markCards();
  refresh();
}

// The cards' pictures and names, in the page's language, one preset after another.
async function drawCards() {
  for (const card of document.querySelectorAll('.card[data-preset]')) {
    const preset = card.dataset.preset;
    try {
      const d = await engine.design(`preset: ${preset}\nlanguage: ${state.language}\n`, 0, PICTURE_DPI);
      card.querySelector('.picture').src = URL.createObjectURL(new Blob([d.label], { type: 'image/png' }));
      card.querySelector('.card-name').textContent = d.settings.name;
    } catch (e) {
      card.querySelector('.card-name').textContent = preset;
    }
  }
}

// ---- the kit as the engine makes it --------------------------------------------------

async function refresh() {
  const yaml = kitYaml();
  save();
  const asked = ++state.asked;
  let design;
  try {
    design = await engine.design(yaml, state.box, LABEL_DPI);
  } catch (e) {
    if (asked === state.asked) {
      showProblem(e.problem || { text: e.message });
      document.body.dataset.problems = Number(document.body.dataset.problems || 0) + 1;
    }
    return;
  }
  if (asked !== state.asked) return;
  if (state.box >= design.boxes.boxes.length) {
    state.box = 0;
    return refresh();
  }
  state.design = design;
  state.files = null;
  $('lesson').href = 'lesson.html#' + encodeURIComponent(yaml);
  // For scripts and tests: how many designs the page has shown.
  document.body.dataset.designs = Number(document.body.dataset.designs || 0) + 1;
  showProblem(null, design.warnings);
  fillForm(design.settings);
  showLabel(design);
  showFigures(design);
  showBoxes(design);
  $('previews-hint').textContent = say(design.settings.previews ? 'download.previews.hint' : 'download.previews.off');
}

// A kit's mistake (`problem`, or none) and its warnings, each as the engine hands them
// over: at its key's field where it has one, and above all. The words at the field
// leave out the key, which the field names, and the command line's pointers to its
// other commands, which the page offers in its own fields.
function showProblem(problem, warnings) {
  for (const e of document.querySelectorAll('.field-error')) e.hidden = true;
  for (const f of document.querySelectorAll('.field.invalid')) f.classList.remove('invalid');
  for (const c of document.querySelectorAll('[aria-invalid]')) c.removeAttribute('aria-invalid');
  const box = $('problem');
  const invalid = Boolean(problem);
  document.body.classList.toggle('stale', invalid);
  // No files from a kit that cannot be made: kit.yaml, as written, is still there.
  for (const b of document.querySelectorAll('.download:not([data-file="kit.yaml"])')) b.disabled = invalid || (b.dataset.file === 'previews.zip' && !state.design?.settings.previews);
  $('downloads-note').hidden = !invalid;
  const notes = [];
  for (const p of [problem, ...(warnings || [])].filter(Boolean)) {
    const at = p.key && $(`error-${p.key}`);
    if (at) {
      at.textContent = p.text;
      at.hidden = false;
      const holder = at.closest('.field');
      holder.classList.add('invalid');
      const input = holder.querySelector('input, select');
      if (input && !p.warning) input.setAttribute('aria-invalid', 'true');
      holder.scrollIntoView({ block: 'nearest' });
    }
    notes.push({ text: p.text, warning: p.warning, key: at ? p.key : null });
  }
  box.hidden = notes.length === 0;
  box.className = problem ? 'problem error' : 'problem warning';
  box.replaceChildren(...notes.map((n) => element('p', {},
    element('b', { text: say(n.warning ? 'warning.title' : 'error.title') }), ' ', n.text,
    n.key ? element('span', { class: 'where', text: ` (${keyWords(describedKey(n.key)).name})` }) : null)));
}

function showLabel(design) {
  const total = design.boxes.boxes.length;
  const img = $('label');
  if (img.src) URL.revokeObjectURL(img.src);
  img.src = URL.createObjectURL(new Blob([design.label], { type: 'image/png' }));
  img.alt = say('label.box', { n: design.boxes.boxes[state.box].id, total });
  const [w, h] = design.label_mm;
  img.style.aspectRatio = `${w} / ${h}`;
  $('box-number').textContent = say('label.box', { n: design.boxes.boxes[state.box].id, total });
  $('box-previous').disabled = state.box === 0;
  $('box-next').disabled = state.box + 1 >= total;
}

function showFigures(design) {
  const f = design.figures;
  const rows = [[number(f.boxes), sayCount('figures.boxes', f.boxes)], [number(f.beads), sayCount('figures.beads', f.beads)]];
  if (f.reserve > 0) rows.push([number(f.reserve), sayCount('figures.spare', f.reserve)]);
  rows.push([number(f.label_sheets), f.stickers ? sayCount('figures.sticker_sheets', f.label_sheets, { code: f.stickers })
    : sayCount('figures.sheets', f.label_sheets, { paper: f.paper })]);
  $('figures').replaceChildren(...rows.flatMap(([value, what]) => [element('dt', { text: value }), element('dd', { text: what })]));
  $('colours').replaceChildren(...f.colours.map((c, i) => element('li', {},
    element('span', { class: 'swatch', style: `background:${design.colour_rgb[i]}` }),
    element('span', { class: 'colour-label', text: `${c.name} (${c.code})` }),
    element('b', { text: number(c.buy) }))));
}

function showBoxes(design) {
  const rgb = Object.fromEntries(design.settings.palette.map((c) => [c.name, c.rgb]));
  const body = $('boxes').tBodies[0];
  // A box picked by keyboard keeps the focus on its row as the list is drawn again.
  const focused = body.contains(document.activeElement);
  body.replaceChildren(...design.boxes.boxes.map((b, i) => element('tr', {
    class: i === state.box ? 'current' : '', tabindex: 0,
    onclick: () => { state.box = i; refresh(); },
    onkeydown: (e) => { if (e.key === 'Enter') { state.box = i; refresh(); } },
  },
  element('td', { class: 'number', text: b.id }),
  element('td', { text: b.tag }),
  element('td', { class: 'position' }, ...b.position.split('/').map((row) => element('span', { text: row }))),
  element('td', { class: 'moves' }, ...b.moves.map((m) => element('span', { class: 'move' },
    element('span', { class: 'swatch', style: `background:${rgb[m.colour]}` }), `${m.move} ×${m.beads}`))))));
  if (focused) body.rows[state.box].focus();
}

// ---- downloads ---------------------------------------------------------------------

function saveFile(name, blob) {
  const a = element('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

const sizeText = (bytes) => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

// A kit's files are made in a worker of their own: the page goes on showing the kit
// meanwhile, tells how far the work is and how long it has taken, and Cancel stops it.
async function making(file, request) {
  const started = performance.now();
  const previews = request.previews === true;
  let told = [0, 0];
  const show = () => {
    const [done, total] = told;
    const labels = previews ? total / 2 : total;
    const bar = $('busy');
    let text;
    if (total > 0 && done < labels) {
      text = say('making.labels', { file, done: number(done), total: number(labels) });
    } else if (total > 0 && done < total) {
      text = say('making.previews', { file, done: number(done - labels), total: number(labels) });
    } else {
      // What comes after the drawings is not told as it goes: kit.pdf's figures and pages.
      text = say(total > 0 && file === 'kit.pdf' ? 'making.figures' : 'making', { file });
    }
    if (total > 0 && done < total) {
      bar.max = total;
      bar.value = done;
    } else {
      bar.removeAttribute('value');
    }
    $('status-text').textContent = `${text} · ${Math.floor((performance.now() - started) / 1000)} s`;
  };
  document.body.classList.add('making');
  $('busy').hidden = false;
  $('cancel').hidden = false;
  show();
  const clock = setInterval(show, 250);
  try {
    return await engine.make(request, (done, total) => {
      told = [done, total];
      show();
    });
  } finally {
    clearInterval(clock);
    $('busy').hidden = true;
    $('cancel').hidden = true;
    document.body.classList.remove('making');
  }
}

// The files made for the kit.yaml on the screen, kept for the next download of it.
function madeFor(yaml) {
  if (!state.files || state.files.yaml !== yaml) state.files = { yaml, parts: {} };
  return state.files.parts;
}

async function download(file) {
  const yaml = kitYaml();
  if (file === 'kit.yaml') return saveFile('kit.yaml', new Blob([yaml], { type: 'text/yaml' }));
  if (document.body.classList.contains('making')) return;
  const previews = file === 'previews.zip';
  const made = madeFor(yaml);
  const have = previews ? Object.keys(made).some((name) => name.startsWith('previews/')) : made[file] !== undefined;
  try {
    if (!have) {
      // labels.pdf and the previews without kit.pdf's figures, which take minutes for
      // some kits; kit.pdf with labels.pdf, as the command line makes them.
      const request = file === 'kit.pdf' ? { command: 'kit', yaml, previews: false } : { command: 'labels', yaml, previews };
      Object.assign(made, await making(file, request));
    }
    const blob = previews
      ? zip(Object.entries(made).filter(([n]) => n.startsWith('previews/')).map(([n, b]) => [n.slice('previews/'.length), b]))
      : new Blob([made[file]], { type: 'application/pdf' });
    saveFile(file, blob);
    $('status-text').textContent = say('made', { file, size: sizeText(blob.size) });
  } catch (e) {
    if (e.cancelled) {
      $('status-text').textContent = say('cancelled', { file });
    } else {
      $('status-text').textContent = '';
      showProblem(e.problem || { text: e.message });
    }
  }
}

// ---- the page's language, and what is kept between visits ---------------------------

// The browser's storage, which may be full, switched off or refused: then the page
// works all the same, says so once, and only cannot remember.
const storage = {
  get(key) {
    try {
      return localStorage.getItem(key);
    } catch (e) {
      forgetful();
      return null;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(key, value);
      return true;
    } catch (e) {
      forgetful();
      return false;
    }
  },
};

function forgetful() {
  state.remembers = false;
  $('storage').hidden = false;
}

// The choices, kept for the next visit.
function save() {
  const { preset, game, changed, languageSet, box, language } = state;
  storage.set(STORE, JSON.stringify({ preset, game, changed, languageSet, box, language }));
}

function restore() {
  try {
    const kept = JSON.parse(storage.get(STORE) || 'null');
    if (kept && gameOf(kept.game)) Object.assign(state, kept);
  } catch (e) { /* a damaged entry starts afresh */ }
}

function translate() {
  document.documentElement.lang = state.language;
  document.title = say('page.title');
  for (const node of document.querySelectorAll('[data-word]')) node.textContent = say(node.dataset.word);
  for (const node of document.querySelectorAll('[data-title]')) node.title = say(node.dataset.title);
  for (const node of document.querySelectorAll('[data-aria]')) node.setAttribute('aria-label', say(node.dataset.aria));
  for (const b of document.querySelectorAll('[data-language]')) {
    b.classList.toggle('current', b.dataset.language === state.language);
    b.setAttribute('aria-pressed', String(b.dataset.language === state.language));
  }
}

function setLanguage(language) {
  useLanguage(language);
  if (!state.languageSet) state.changed.language = language;
  translate();
  buildGames();
  buildForm();
  refresh().then(drawCards);
}

// Lets the browser paint and answer a tap before the next step.
const nextTask = () => new Promise((resolve) => setTimeout(resolve));

async function start() {
  state.catalogue = await engine.catalogue();
  const wanted = (navigator.language || 'en').slice(0, 2);
  state.language = state.catalogue.languages.includes(wanted) ? wanted : 'en';
  // The first game's first preset, until the teacher has chosen.
  ({ game: state.game, preset: state.preset } = engine.firstKit(state.catalogue));
  restore();
  useLanguage(state.language);
  if (!state.languageSet) state.changed.language = state.language;
  translate();
  buildGames();
  // The page's words and cards painted before the form is built: on a slow phone each
  // is a long step, and one after another they would hold the page for half a second.
  await nextTask();
  buildForm();
  await nextTask();
  for (const b of document.querySelectorAll('[data-language]')) b.addEventListener('click', () => setLanguage(b.dataset.language));
  for (const b of document.querySelectorAll('.download')) b.addEventListener('click', () => download(b.dataset.file));
  $('cancel').addEventListener('click', () => engine.cancel());
  $('box-previous').addEventListener('click', () => { state.box -= 1; refresh(); });
  $('box-next').addEventListener('click', () => { state.box += 1; refresh(); });
  await refresh();
  $('starting').hidden = true;
  $('designer').hidden = false;
  document.body.dataset.ready = 'yes';
  document.body.dataset.readyMs = Math.round(performance.now());
  // The kits' worker loads its engine once the cards are drawn, before a download.
  drawCards().then(() => engine.warm());
}

start().catch((e) => { $('starting').textContent = String(e.message || e); });
