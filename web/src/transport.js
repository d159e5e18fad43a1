// How the classroom page reaches the machine in the static site: lesson.html is the
// very page `matchbox serve` serves (app.js, style.css), and here the engine in the
// page's worker answers the requests the server answers. The kit is the one in the
// address (`lesson.html#` and kit.yaml's text, as the designer's "Run the lesson" link
// writes it); its beads are kept in this browser's storage after every game, and can
// be opened from a state file (`load`). The contract it keeps with app.js is page.js's
// (`TRANSPORT`).
//
// One machine however many tabs: the tab that holds the kit's lock (Web Locks) runs the
// machine and keeps the beads; every other tab of this browser on the kit sends it its
// requests (BroadcastChannel) and shows its answers, so both play on one machine and no
// game is overwritten. When that tab closes, the next takes the lock and opens the
// lesson with the last beads the first handed round. Another browser, or profile, shares
// no storage with this one and has a machine of its own; a state file carries beads
// across.
import { engine } from './engine.js';

// The browser's storage; a browser that forbids it (private modes, cookies blocked)
// throws even on reading, and then keeps nothing.
const storage = {
  get(key) {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  },
  // Whether it was kept: true, or why not: 'full' (no room left) or 'blocked' (the
  // browser keeps nothing for pages).
  set(key, text) {
    try {
      localStorage.setItem(key, text);
      return true;
    } catch (e) {
      const full = e.name === 'QuotaExceededError' || e.name === 'NS_ERROR_DOM_QUOTA_REACHED';
      return full ? 'full' : 'blocked';
    }
  },
};

// The last kit's text, for the page opened without one; the first time, the kit the
// designer starts from.
const LAST = 'matchbox-lesson';
const given = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null;
const kit = given || storage.get(LAST) || engine.firstKit(await engine.catalogue()).yaml;
// Each kit's beads apart: a state file of another kit is refused anyway.
const key = 'matchbox-beads:' + kit;
const problems = [];
let told = null;
// Why the last beads could not be kept ('full', 'blocked'; null when they were), and
// who is told when that changes.
let unkept = null;
let toldUnkept = null;

// Which tab keeps the beads (a page word's key, or null while this one is alone), and
// who is told.
let tabs = null;
let toldTabs = null;

// Says a problem (a page word's key, and why) as soon as the page listens.
function problem(word, why) {
  if (told) told(word, why);
  else problems.push([word, why]);
}

// Says which tab keeps the beads.
function sayTabs(word) {
  tabs = word;
  if (toldTabs) toldTabs(word);
}

// Whether the storage kept the last beads changed: the page says it.
function unkeptNow(why) {
  if (why === unkept) return;
  unkept = why;
  if (toldUnkept) toldUnkept(unkept);
}

// The other tabs on this kit, where the browser can tell them apart.
const channel = 'BroadcastChannel' in self && navigator.locks ? new BroadcastChannel(key) : null;
// The last beads the keeping tab handed round: newer than the storage's when it is full.
let latest = null;

// Keeps the beads; while the storage cannot, the page says why until a save succeeds.
// The other tabs are handed them too, to open with if this one closes.
function keep(text) {
  const kept = storage.set(key, text);
  const why = kept === true ? null : kept;
  unkeptNow(why);
  if (channel) channel.postMessage({ saved: text, unkept: why });
}

// A new seed each time the lesson opens, as the server takes one from the clock.
function seed() {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return (high >>> 11) * 2 ** 32 + low;
}

// Opens the lesson with a state file's text (fresh boxes without). A refused file
// rejects with the engine's words for the page, and `edited` when the teacher may
// open it all the same (`anyway`).
async function open(state, name, anyway) {
  const parts = await engine.ask({ command: 'lesson', yaml: kit, state, name, seed: seed(), accept_edited: Boolean(anyway) });
  const answer = engine.json(parts.json);
  if (answer.refused) throw Object.assign(new Error(answer.refused), { refused: true, edited: answer.edited });
  // What the server would tell its terminal (a file's own settings): the settings
  // panel shows them.
  for (const note of answer.notes) console.info(note);
}

// Opens the lesson with the beads kept (the keeping tab's last, else the storage's).
async function openKept() {
  const stored = latest ?? storage.get(key);
  if (stored === null) return open(null);
  try {
    await open(stored);
  } catch (e) {
    // Beads the engine no longer reads: kept aside (if there is room), and the
    // lesson starts afresh.
    storage.set(key + ':unread', stored);
    problem('page.beads_unread', e.message);
    await open(null);
  }
}

// Never settles: a lock held with it is held until the tab closes.
const forever = () => new Promise(() => {});
// Whether this tab keeps the beads: it holds the kit's lock (at once where the browser
// cannot tell tabs apart). Otherwise it queues for the lock, to take over when the
// keeping tab closes.
const holding = new Promise((resolve) => {
  if (!channel) {
    resolve(true);
    return;
  }
  navigator.locks.request(key, { ifAvailable: true }, (lock) => {
    if (lock) {
      resolve(true);
      return forever();
    }
    resolve(false);
    navigator.locks.request(key, () => {
      takeOver();
      return forever();
    });
    return null;
  });
});
// Set once this tab runs the machine.
let keeper = false;

const opened = (async () => {
  engine.onsaved = keep;
  // Only the next visit without a kit misses it if it cannot be kept; and the page
  // says at once that the storage keeps nothing.
  const kept = storage.set(LAST, kit);
  if (kept !== true) unkeptNow(kept);
  if (!given) history.replaceState(null, '', '#' + encodeURIComponent(kit));
  if (!channel) sayTabs('page.tabs.unknown');
  if (!(await holding)) {
    sayTabs('page.tabs.follows');
    return;
  }
  await openKept();
  keeper = true;
  if (channel) channel.postMessage({ keeper: true });
})();

// The requests this tab sent the keeping tab, by id, until answered.
const asked = new Map();
const me = Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) => n.toString(36)).join('');
let nextAsk = 1;

// A request for the keeping tab: `{api: [method, path, body]}` or `{load: [text, name,
// anyway]}`; its answer, or its refusal as an error.
function ask(request) {
  const id = me + ':' + nextAsk++;
  return new Promise((resolve, reject) => {
    asked.set(id, { request, resolve, reject });
    channel.postMessage({ id, request });
  });
}

// A request answered by this tab's machine.
function answer(request) {
  return request.api ? here(...request.api) : loadHere(...request.load);
}

// The keeping tab closed: this one opens the lesson with its last beads, answers what
// it was asked, and tells the others to ask it.
async function takeOver() {
  await opened;
  await openKept();
  keeper = true;
  sayTabs('page.tabs.took_over');
  channel.postMessage({ keeper: true });
  for (const [id, waiting] of asked) {
    asked.delete(id);
    answer(waiting.request).then(waiting.resolve, waiting.reject);
  }
}

if (channel) {
  channel.onmessage = async ({ data }) => {
    if (data.request) {
      // Another tab's request: the keeping tab answers it (the others let it go).
      if (!keeper) return;
      if (tabs === null) sayTabs('page.tabs.keeps');
      try {
        channel.postMessage({ to: data.id, answer: await answer(data.request) });
      } catch (e) {
        channel.postMessage({ to: data.id, error: { message: e.message, refused: e.refused, field: e.field, edited: e.edited } });
      }
    } else if (data.to) {
      const waiting = asked.get(data.to);
      if (!waiting) return;
      asked.delete(data.to);
      if (data.error) waiting.reject(Object.assign(new Error(data.error.message), data.error));
      else waiting.resolve(data.answer);
    } else if (data.saved !== undefined) {
      latest = data.saved;
      unkeptNow(data.unkept);
    } else if (data.keeper) {
      // A tab took over: what the one before left unanswered goes to it.
      for (const [id, waiting] of asked) channel.postMessage({ id, request: waiting.request });
    }
  };
}

// One of the page's requests, answered by this tab's machine.
async function here(method, path, body) {
  const parts = await engine.ask({
    command: 'api', method, path, body: body === undefined ? '' : JSON.stringify(body),
  });
  const data = engine.json(parts.json);
  const status = Number(new TextDecoder().decode(parts.status));
  if (status !== 200) throw Object.assign(new Error(data.error), { refused: true, field: data.field });
  return data;
}

// A state file's text opened in this tab's machine, and kept.
async function loadHere(text, name, anyway) {
  await open(text, name, anyway);
  keep((await here('GET', '/api/state')).text);
}

async function api(method, path, body) {
  await opened;
  return keeper ? here(method, path, body) : ask({ api: [method, path, body] });
}

// Opens a state file's beads in place of these (`anyway`: although changed by hand),
// and keeps them as the engine writes them (with its checksum: a file changed by hand
// and opened all the same opens again without asking); a refused file changes nothing.
async function load(file, anyway) {
  await opened;
  const text = await file.text();
  return keeper ? loadHere(text, file.name, anyway) : ask({ load: [text, file.name, anyway] });
}

// `listen(say, storageUnkept, tabsSaid)`: problems the page shows, as a word's key and
// why; why the browser's storage can no longer keep the beads ('full', 'blocked', or
// null once it can again), at every change; and which tab keeps the beads, as a
// word's key, when the lesson is open in more than one.
function listen(say, storageUnkept, tabsSaid) {
  told = say;
  toldUnkept = storageUnkept;
  toldTabs = tabsSaid;
  for (const [word, why] of problems.splice(0)) say(word, why);
  if (unkept) storageUnkept(unkept);
  if (tabs) tabsSaid(tabs);
}

// The page is the teacher's (nobody else reaches this browser's engine); no answer
// means the engine failed, not a server; the designer is beside it.
export const transport = { teacher: true, api, load, listen, noAnswer: 'page.engine_failed', designer: 'index.html' };

// Scripts (and tests) ask the lesson as the page does: `matchbox.api(method, path, body)`.
window.matchbox.api = api;
