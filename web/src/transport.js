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
  // The last kit's text, for the page opened without one.
  const LAST = 'matchbox-lesson';
  const given = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null;
  const kit = given || localStorage.getItem(LAST) || 'preset: hexapawn\n';
  // Each kit's beads apart: a state file of another kit is refused anyway.
  const key = 'matchbox-beads:' + kit;
  const problems = [];
  let told = null;

  // Says a problem (a page word's key, and why) as soon as the page listens.
  function problem(word, why) {
    if (told) told(word, why);
    else problems.push([word, why]);
  }

  function keep(text) {
    try {
      localStorage.setItem(key, text);
    } catch (e) {
      problem('page.save.browser', e.message);
    }
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

  async function open(state, name) {
    await engineLoaded;
    const parts = await engine.ask({ command: 'lesson', yaml: kit, state, name, seed: seed() });
    // What the server would tell its terminal (a file's own settings): the settings
    // panel shows them.
    for (const note of engine.json(parts.json).notes) console.info(note);
  }

  const opened = (async () => {
    await engineLoaded;
    engine.onsaved = keep;
    try {
      localStorage.setItem(LAST, kit);
    } catch (e) { /* only the next visit without a kit misses it */ }
    if (!given) history.replaceState(null, '', '#' + encodeURIComponent(kit));
    const stored = localStorage.getItem(key);
    if (stored === null) return open(null);
    try {
      await open(stored);
    } catch (e) {
      // Beads the engine no longer reads: kept aside, and the lesson starts afresh.
      try {
        localStorage.setItem(key + ':unread', stored);
      } catch (full) { /* said below all the same */ }
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

  // Opens a state file's beads in place of these (a file of another kit, or one
  // changed by hand, is refused and changes nothing), and keeps them.
  async function load(file) {
    await opened;
    const text = await file.text();
    try {
      await open(text, file.name);
    } catch (e) {
      throw Object.assign(e, { refused: true });
    }
    keep(text);
  }

  // `listen(say)`: problems the page shows, as a word's key and why.
  function listen(say) {
    told = say;
    for (const [word, why] of problems.splice(0)) say(word, why);
  }

  return { teacher: true, api, load, listen };
})();
