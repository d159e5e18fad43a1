// What both pages share, the classroom screen (app.js, served by `matchbox serve` and as
// the static site's lesson) and the kit designer (designer.js): elements, the page's
// words in its language with their counts, and the transport's contract. An ES module
// (no bundler): both import it, `matchbox serve` serves it, web/build.sh copies it.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/**
 * A new element: `attrs` are its attributes, but for `text` (its text), `on…` (a
 * listener: `onclick`, `oninput`) and `false`/`undefined` (left out; `true` is an
 * attribute without a value); `children` are nodes or text, null ones left out.
 */
export function element(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (value !== false && value !== undefined) node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

// ---- the page's words ------------------------------------------------------------------

// The words on the screen: the language, and the tables a key is looked up in, in turn
// (the language's own, then English where the page has it).
const words = { language: 'en', tables: [] };

/** Puts the page's words in `language`, looked up in `tables` in turn. */
export function useWords(language, ...tables) {
  words.language = language;
  words.tables = tables.filter(Boolean);
}

/** A number as the page's language writes it (1 234 in Polish); anything else as text. */
export function number(value) {
  return typeof value === 'number' ? value.toLocaleString(words.language) : String(value);
}

/**
 * The words for `key` (the key itself where no table has it), with each `{name}` filled
 * from `values`, numbers written the language's way.
 */
export function say(key, values) {
  let text = key;
  for (const table of words.tables) {
    if (key in table) {
      text = table[key];
      break;
    }
  }
  for (const [name, value] of Object.entries(values || {})) {
    text = text.split('{' + name + '}').join(number(value));
  }
  return text;
}

/**
 * Words for a count of `n`: the strings write the forms for one, a few and many as
 * `one|few|many` (1 pudełko, 2 pudełka, 5 pudełek), as the engine's own counts.
 */
export function sayCount(key, n, values) {
  const forms = say(key, values).split('|');
  const form = { one: 0, few: 1 }[new Intl.PluralRules(words.language).select(n)] ?? 2;
  return forms[Math.min(form, forms.length - 1)];
}

// ---- the transport: how the classroom screen reaches the machine ------------------------

/**
 * The contract of a transport, which each transport.js exports as `transport`: the
 * server's (`matchbox serve`: HTTP with the teacher's token) and the static site's (the
 * engine in the browser's worker). By member, its type and what it is:
 * - `teacher` (boolean): whether this screen may change anything (the others follow);
 * - `api(method, path, body)`: one request of docs/api.md; resolves with the answer's
 *   JSON, or rejects with an Error whose `refused` is true when the machine said no (its
 *   `message` in the kit's language, `field` the setting it is about, if any) and false
 *   when no answer came;
 * - `noAnswer` (string): the key of the words said when no answer came.
 * And, where the transport can:
 * - `load(file, anyway)`: opens a state file's beads in place of these; a refusal rejects
 *   with `refused`, and `edited` when the teacher may open it all the same (`anyway`);
 * - `listen(problem, storageUnkept, tabs)`: tells the page problems (a key and why),
 *   why the browser's storage cannot keep the beads (`full`, `blocked`, null), and which
 *   tab keeps them (a key);
 * - `designer` (string): the address of the kit designer, to link back to.
 */
export const TRANSPORT = {
  required: { teacher: 'boolean', api: 'function', noAnswer: 'string' },
  optional: { load: 'function', listen: 'function', designer: 'string' },
};

/**
 * Checks that `transport` keeps the contract, where a page starts: throws an Error that
 * names each member missing, of the wrong type or unknown.
 */
export function checkTransport(transport) {
  const wrong = [];
  for (const [name, type] of Object.entries(TRANSPORT.required)) {
    if (typeof transport[name] !== type) wrong.push(`${name} is not a ${type}`);
  }
  for (const [name, value] of Object.entries(transport)) {
    const type = TRANSPORT.required[name] || TRANSPORT.optional[name];
    if (!type) wrong.push(`${name} is not in the contract`);
    else if (typeof value !== type) wrong.push(`${name} is not a ${type}`);
  }
  if (wrong.length) throw new Error('transport.js: ' + [...new Set(wrong)].join('; '));
  return transport;
}
