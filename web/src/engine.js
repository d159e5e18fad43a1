// The engine as the page sees it: requests sent to the worker (worker.js), answers as
// promises. `window.matchbox` is the scriptable face of it:
//   await matchbox.kit(yaml)   -> {'labels.pdf': Uint8Array, 'kit.pdf': ..., 'previews/box-001.png': ...}
//   await matchbox.boxes(yaml) -> the object `matchbox boxes --json` prints
// A bad kit rejects with the CLI's message (file:line:column: ...) as the error's message.
'use strict';

const engine = (() => {
  const worker = new Worker('worker.js');
  const waiting = new Map();
  let next = 1;
  worker.onmessage = (event) => {
    // Unasked: the lesson's state file to keep, or a run that failed (a bug).
    if (event.data.saved) {
      if (face.onsaved) face.onsaved(new TextDecoder().decode(event.data.saved));
      return;
    }
    if (event.data.problem) {
      console.error(event.data.problem);
      return;
    }
    const { id, status, parts } = event.data;
    const { resolve, reject } = waiting.get(id);
    waiting.delete(id);
    if (status === 0) {
      resolve(parts);
    } else {
      const error = new Error(new TextDecoder().decode(parts.error));
      error.status = status;
      reject(error);
    }
  };
  // One request to the engine; its answer's parts (name -> Uint8Array).
  function ask(request) {
    const id = next++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, request });
    });
  }
  const json = (bytes) => JSON.parse(new TextDecoder().decode(bytes));
  const face = {
    ask,
    json,
    // Given the lesson's state file's text whenever the lesson keeps its beads.
    onsaved: null,
    async catalogue() {
      return json((await ask({ command: 'catalogue' })).json);
    },
    // The kit's settings, figures and boxes; `label` the PNG of box `box`.
    async design(yaml, box, dpi) {
      const parts = await ask({ command: 'design', yaml, box, dpi });
      return { ...json(parts.json), label: parts['label.png'] };
    },
  };
  return face;
})();

window.matchbox = {
  kit: (yaml) => engine.ask({ command: 'kit', yaml: String(yaml) }),
  boxes: async (yaml) => engine.json((await engine.ask({ command: 'boxes', yaml: String(yaml) }))['boxes.json']),
};

// Kept for offline use once loaded (browsers allow it on https and on this computer).
if ('serviceWorker' in navigator && (location.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(location.hostname))) {
  navigator.serviceWorker.register('sw.js').catch(() => { /* the page works without it */ });
}
