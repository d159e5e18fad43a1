// The engine's thread: loads the engine (matchbox.lzma) and answers the pages' requests
// one at a time, so that a page never freezes while a kit is made or the machine
// trains. A message in is {id, request}; a message out is {id, status, parts} (parts:
// name -> bytes, the bytes' buffers transferred, not copied), or, unasked, {saved:
// bytes} (the lesson's state file to keep), {id, progress: [done, total]} (the labels
// and previews of a kit drawn so far, at most ten times a second) or {problem: text}.
//
// While the lesson's machine trains or plays on its own, the worker goes on with it in
// steps (the engine says when the next is due), and after each of the page's requests
// at once, so that a pause or a new pace takes at once.
'use strict';

// The module, loading or loaded; null after a trap, which leaves its memory in doubt.
let loading = null;
// The timer of the lesson's next step, if one is due.
let stepping = null;
// The request being answered, and when its progress was last told.
let asking = null;
let told = 0;

// How far the kit is: told to the page now and then, and at the end.
function progress(done, total) {
  const now = performance.now();
  if (done < total && now - told < 100) return;
  told = now;
  self.postMessage({ id: asking, progress: [done, total] });
}

// The engine is stored packed (unlzma.js says why).
importScripts('unlzma.js');

async function load() {
  const response = await fetch('matchbox.lzma');
  if (!response.ok) throw new Error(`matchbox.lzma: ${response.status}`);
  const imports = { env: { matchbox_now: () => performance.now(), matchbox_progress: progress } };
  const wasm = unlzma(new Uint8Array(await response.arrayBuffer()));
  const { instance } = await WebAssembly.instantiate(wasm, imports);
  return instance.exports;
}

// The framed answer (see crates/web: name length, name, bytes length, bytes, ...).
function unframe(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts = {};
  const decoder = new TextDecoder();
  for (let at = 0; at < bytes.length;) {
    const nameLength = view.getUint32(at, true);
    const name = decoder.decode(bytes.subarray(at + 4, at + 4 + nameLength));
    at += 4 + nameLength;
    const length = view.getUint32(at, true);
    parts[name] = bytes.slice(at + 4, at + 4 + length);
    at += 4 + length;
  }
  return parts;
}

// One request to the engine; the lesson's state file to keep goes to the page at once.
function call(engine, request) {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  const at = engine.matchbox_request(bytes.length);
  new Uint8Array(engine.memory.buffer, at, bytes.length).set(bytes);
  const status = engine.matchbox_call();
  const answer = new Uint8Array(engine.memory.buffer, engine.matchbox_answer(), engine.matchbox_answer_len());
  const parts = unframe(answer);
  if (parts['state.json']) {
    self.postMessage({ saved: parts['state.json'] }, [parts['state.json'].buffer]);
    delete parts['state.json'];
  }
  return { status, parts };
}

function stepAfter(ms) {
  clearTimeout(stepping);
  stepping = setTimeout(step, ms);
}

async function step() {
  stepping = null;
  try {
    const { status, parts } = call(await loading, { command: 'step' });
    const text = (name) => new TextDecoder().decode(parts[name]);
    if (status !== 0) self.postMessage({ problem: text('error') });
    else if (parts.next) stepAfter(Number(text('next')));
  } catch (e) {
    loading = null;
    self.postMessage({ problem: String(e) });
  }
}

self.onmessage = async (event) => {
  const { id, request } = event.data;
  asking = id;
  told = 0;
  try {
    loading ??= load();
    const { status, parts } = call(await loading, request);
    self.postMessage({ id, status, parts }, Object.values(parts).map((p) => p.buffer));
  } catch (e) {
    loading = null;
    self.postMessage({ id, status: 1, parts: { error: new TextEncoder().encode(String(e)) } });
  }
  if (request.command === 'api' || request.command === 'lesson') stepAfter(0);
};

// Loaded at once, so that the first request does not wait for it.
loading = load();
