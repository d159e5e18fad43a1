// The engine's thread: loads matchbox.wasm and answers the page's requests one at a
// time, so that the page never freezes while a kit is made. A message in is
// {id, request}; a message out is {id, status, parts} (parts: name -> bytes, the bytes'
// buffers transferred, not copied).
'use strict';

// The module, loading or loaded; null after a trap, which leaves its memory in doubt.
let loading = null;

async function load() {
  const response = await fetch('matchbox.wasm');
  if (!response.ok) throw new Error(`matchbox.wasm: ${response.status}`);
  const { instance } = await WebAssembly.instantiate(await response.arrayBuffer(), {});
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

function call(engine, request) {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  const at = engine.matchbox_request(bytes.length);
  new Uint8Array(engine.memory.buffer, at, bytes.length).set(bytes);
  const status = engine.matchbox_call();
  const answer = new Uint8Array(engine.memory.buffer, engine.matchbox_answer(), engine.matchbox_answer_len());
  return { status, parts: unframe(answer) };
}

self.onmessage = async (event) => {
  const { id, request } = event.data;
  try {
    loading ??= load();
    const { status, parts } = call(await loading, request);
    self.postMessage({ id, status, parts }, Object.values(parts).map((p) => p.buffer));
  } catch (e) {
    loading = null;
    self.postMessage({ id, status: 1, parts: { error: new TextEncoder().encode(String(e)) } });
  }
};

// Loaded at once, so that the first request does not wait for it.
loading = load();
