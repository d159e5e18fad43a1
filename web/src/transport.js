// How the classroom page reaches the machine in the static site: lesson.html is the
// very page `matchbox serve` serves (app.js, style.css), and here the engine in the
// page's worker answers the requests the server answers. The kit is the one in the
// address (`lesson.html#` and kit.yaml's text, as the designer's "Run the lesson" link
// writes it); its beads are kept in this browser's storage after every game, and can
// be opened from a state file (`load`). The rest of the contract is app.js's: `api`
// resolves with the answer's JSON, or rejects with an error whose `refused` is true
// when the machine said no.
'use strict';

const transport = (() => {
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
  // The last kit's text, for the page opened without one.
  const LAST = 'matchbox-lesson';
  const given = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null;
  const kit = given || storage.get(LAST) || 'preset: hexapawn\n';
  // Each kit's beads apart: a state file of another kit is refused anyway.
  const key = 'matchbox-beads:' + kit;
  const problems = [];
  let told = null;
  // Why the last beads could not be kept ('full', 'blocked'; null when they were), and
  // who is told when that changes.
  let unkept = null;
  let toldUnkept = null;

  // Says a problem (a page word's key, and why) as soon as the page listens.
  function problem(word, why) {
    if (told) told(word, why);
    else problems.push([word, why]);
  }

  // Keeps the beads; while the storage cannot, the page says why until a save succeeds.
  function keep(text) {
    const kept = storage.set(key, text);
    const why = kept === true ? null : kept;
    if (why === unkept) return;
    unkept = why;
    if (toldUnkept) toldUnkept(unkept);
  }

  // engine.js, with its worker: loaded here, so that lesson.html lists the same
  // scripts as the server's page.
  const engineLoaded = new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'engine.js';
    script.onload = resolve;
    script.onerror = () => reject(new Error('engine.js'));
    document.head.append(script);
  });

  // A new seed each time the lesson opens, as the server takes one from the clock.
  function seed() {
    const [high, low] = crypto.getRandomValues(new Uint32Array(2));
    return (high >>> 11) * 2 ** 32 + low;
  }

  // Opens the lesson with a state file's text (fresh boxes without). A refused file
  // rejects with the engine's words for the page, and `edited` when the teacher may
  // open it all the same (`anyway`).
  async function open(state, name, anyway) {
    await engineLoaded;
    const parts = await engine.ask({ command: 'lesson', yaml: kit, state, name, seed: seed(), accept_edited: Boolean(anyway) });
    const answer = engine.json(parts.json);
    if (answer.refused) throw Object.assign(new Error(answer.refused), { refused: true, edited: answer.edited });
    // What the server would tell its terminal (a file's own settings): the settings
    // panel shows them.
    for (const note of answer.notes) console.info(note);
  }

  const opened = (async () => {
    await engineLoaded;
    engine.onsaved = keep;
    // Only the next visit without a kit misses it if it cannot be kept.
    storage.set(LAST, kit);
    if (!given) history.replaceState(null, '', '#' + encodeURIComponent(kit));
    const stored = storage.get(key);
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
  })();

  async function api(method, path, body) {
    await opened;
    const parts = await engine.ask({
      command: 'api', method, path, body: body === undefined ? '' : JSON.stringify(body),
    });
    const data = engine.json(parts.json);
    const status = Number(new TextDecoder().decode(parts.status));
    if (status !== 200) throw Object.assign(new Error(data.error), { refused: true, field: data.field });
    return data;
  }

  // Opens a state file's beads in place of these (`anyway`: although changed by hand),
  // and keeps them as the engine writes them (with its checksum: a file changed by hand
  // and opened all the same opens again without asking); a refused file changes nothing.
  async function load(file, anyway) {
    await opened;
    await open(await file.text(), file.name, anyway);
    keep((await api('GET', '/api/state')).text);
  }

  // `listen(say, storageUnkept)`: problems the page shows, as a word's key and why; and
  // why the browser's storage can no longer keep the beads ('full', 'blocked', or null
  // once it can again), at every change.
  function listen(say, storageUnkept) {
    told = say;
    toldUnkept = storageUnkept;
    for (const [word, why] of problems.splice(0)) say(word, why);
    if (unkept) storageUnkept(unkept);
  }

  // The page is the teacher's (nobody else reaches this browser's engine); no answer
  // means the engine failed, not a server; the designer is beside it.
  return { teacher: true, api, load, listen, noAnswer: 'page.engine_failed', designer: 'index.html' };
})();
