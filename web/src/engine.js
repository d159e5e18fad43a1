// The engine as the page sees it: requests sent to a worker (worker.js), answers as
// promises. Quick requests (a design, the lesson's) go to one worker; a kit's files go to
// another, so that the page goes on showing the kit while they are made, and a Cancel
// can stop them (that worker is ended, and a new one started when next needed).
// `window.matchbox` is the scriptable face of it:
//   await matchbox.kit(yaml)   -> {'labels.pdf': Uint8Array, 'kit.pdf': ..., 'previews/box-001.png': ...}
//   await matchbox.boxes(yaml) -> the object `matchbox boxes --json` prints
//   await matchbox.api(method, path, body) -> in the lesson, its answer (transport.js)
// A bad kit rejects with the CLI's message (file:line:column: ...) as the error's message,
// and the same as data in `error.problem` (place, key, text, hints).

import { say } from './page.js';

export const engine = (() => {
  const decode = (bytes) => new TextDecoder().decode(bytes);

  // A worker and the requests waiting for its answers.
  function start() {
    const worker = new Worker('worker.js');
    const waiting = new Map();
    let next = 1;
    worker.onmessage = (event) => {
      const message = event.data;
      // Unasked: the lesson's state file to keep, or a run that failed (a bug).
      if (message.saved) {
        if (face.onsaved) face.onsaved(decode(message.saved));
        return;
      }
      if (message.problem) {
        console.error(message.problem);
        return;
      }
      const asked = waiting.get(message.id);
      if (!asked) return;
      if (message.progress) {
        if (asked.progress) asked.progress(...message.progress);
        return;
      }
      waiting.delete(message.id);
      if (message.status === 0) {
        asked.resolve(message.parts);
      } else {
        const error = new Error(decode(message.parts.error));
        error.status = message.status;
        // The same as data: its place, its key, its words at the field, its hints.
        if (message.parts.problem) error.problem = JSON.parse(decode(message.parts.problem));
        asked.reject(error);
      }
    };
    return {
      // One request; its answer's parts (name -> Uint8Array). `progress(done, total)`
      // is told how far a kit's labels and previews are.
      ask(request, progress) {
        const id = next++;
        return new Promise((resolve, reject) => {
          waiting.set(id, { resolve, reject, progress });
          worker.postMessage({ id, request });
        });
      },
      // Ends the worker: what it was asked rejects with `cancelled`.
      end() {
        worker.terminate();
        for (const asked of waiting.values()) asked.reject(Object.assign(new Error('cancelled'), { cancelled: true }));
        waiting.clear();
      },
    };
  }

  const quick = start();
  let making = null;
  const json = (bytes) => JSON.parse(decode(bytes));
  const face = {
    // One quick request; its answer's parts.
    ask: (request) => quick.ask(request),
    // A kit's files (`command` kit or labels), told how far they are (`progress`).
    make(request, progress) {
      making ??= start();
      return making.ask(request, progress);
    },
    // Stops the kit being made.
    cancel() {
      if (making) making.end();
      making = null;
    },
    // Starts the kits' worker before it is needed (it loads the engine first).
    warm() {
      making ??= start();
    },
    json,
    // Given the lesson's state file's text whenever the lesson keeps its beads.
    onsaved: null,
    async catalogue() {
      return json((await quick.ask({ command: 'catalogue' })).json);
    },
    // The kit a page starts from until the teacher chooses, in the catalogue's order:
    // the first game's first preset (its own defaults if it has none), and as kit.yaml.
    firstKit(catalogue) {
      const game = catalogue.games[0];
      const preset = game.presets[0]?.name ?? null;
      return { game: game.name, preset, yaml: preset ? `preset: ${preset}\n` : `game: ${game.name}\n` };
    },
    // The kit's settings, figures and boxes; `label` the PNG of box `box`.
    async design(yaml, box, dpi) {
      const parts = await quick.ask({ command: 'design', yaml, box, dpi });
      return { ...json(parts.json), label: parts['label.png'] };
    },
  };
  return face;
})();

window.matchbox = {
  kit: (yaml) => engine.make({ command: 'kit', yaml: String(yaml) }),
  boxes: async (yaml) => engine.json((await engine.ask({ command: 'boxes', yaml: String(yaml) }))['boxes.json']),
};

// Kept for offline use once loaded (browsers allow it on https and on this computer).
if ('serviceWorker' in navigator && (location.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(location.hostname))) {
  navigator.serviceWorker.register('sw.js').then((registration) => {
    // A new version waits beside this one (sw.js) until the page lets it in: say so,
    // once it is whole in the cache. The first visit has nothing to replace.
    const waiting = () => {
      if (registration.waiting && navigator.serviceWorker.controller) whenReady(() => updateReady(registration.waiting));
    };
    waiting();
    registration.addEventListener('updatefound', () => {
      const next = registration.installing;
      if (next) next.addEventListener('statechange', () => { if (next.state === 'installed') waiting(); });
    });
  }).catch(() => { /* the page works without it */ });
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloading) location.reload();
  });

  // Runs `then` once the page is ready (`<body data-ready>`): its words are in by then.
  function whenReady(then) {
    const ready = () => document.body.dataset.ready === 'yes';
    if (ready()) return then();
    const watch = new MutationObserver(() => {
      if (!ready()) return;
      watch.disconnect();
      then();
    });
    watch.observe(document.body, { attributes: true, attributeFilter: ['data-ready'] });
  }

  // A bar at the foot of the page: the new version is ready, and Reload puts it in
  // place (this page's work is the teacher's to save first: the bar waits).
  function updateReady(worker) {
    if (document.getElementById('matchbox-update')) return;
    const bar = document.createElement('div');
    bar.id = 'matchbox-update';
    bar.setAttribute('role', 'status');
    bar.style.cssText = 'position:fixed;left:0;right:0;bottom:0;z-index:1000;display:flex;gap:1rem;' +
      'align-items:center;justify-content:center;padding:.6rem 1rem;background:#1d1b18;color:#fff;font:inherit';
    const text = document.createElement('span');
    text.textContent = say('page.update.ready');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = say('page.update.reload');
    button.style.cssText = 'font:inherit;font-weight:600;padding:.25rem .9rem;border-radius:.4rem;border:0;background:#ffe45c;color:#1d1b18;cursor:pointer';
    button.addEventListener('click', () => {
      reloading = true;
      worker.postMessage('matchbox-update');
    });
    bar.append(text, button);
    document.body.append(bar);
  }
}
