// Unpacks the engine, which web/build.sh stores as .lzma (xz --format=lzma): 29%
// smaller than gzip and 4% smaller than brotli, so the site is small on the disk and on
// the network whatever the server compresses with; browsers have no LZMA of their own.
// The decoder of the LZMA specification (lzma-specification.txt in the LZMA SDK), for
// one whole file in memory: `unlzma(bytes)` gives the bytes it holds.
'use strict';

function unlzma(input) {
  const props = input[0];
  if (props >= 9 * 5 * 5) throw new Error('unlzma: not an .lzma file');
  const lc = props % 9;
  const lp = Math.floor(props / 9) % 5;
  const pb = Math.floor(props / 45);
  // The size the header gives, or -1 when it is left to the end marker (xz leaves it).
  let size = 0;
  for (let i = 12; i >= 5; i--) size = size * 256 + input[i];
  if (input.subarray(5, 13).every((b) => b === 0xff)) size = -1;
  let out = new Uint8Array(size >= 0 ? size : input.length * 4);
  let at = 0;

  // The range decoder; `range` and `code` are kept as whole numbers under 2^32 (not
  // bitwise, which would make them signed).
  let pos = 13;
  if (input[pos++] !== 0) throw new Error('unlzma: damaged');
  let range = 0xffffffff;
  let code = 0;
  for (let i = 0; i < 4; i++) code = code * 256 + input[pos++];

  function bit(probs, i) {
    const p = probs[i];
    const bound = (range >>> 11) * p;
    let b;
    if (code < bound) {
      range = bound;
      probs[i] = p + ((2048 - p) >> 5);
      b = 0;
    } else {
      range -= bound;
      code -= bound;
      probs[i] = p - (p >> 5);
      b = 1;
    }
    if (range < 0x1000000) {
      range *= 256;
      code = code * 256 + input[pos++];
    }
    return b;
  }
  function direct(count) {
    let r = 0;
    for (let i = 0; i < count; i++) {
      range = Math.floor(range / 2);
      let b = 0;
      if (code >= range) {
        code -= range;
        b = 1;
      }
      r = r * 2 + b;
      if (range < 0x1000000) {
        range *= 256;
        code = code * 256 + input[pos++];
      }
    }
    return r;
  }
  function tree(probs, base, bits) {
    let m = 1;
    for (let i = 0; i < bits; i++) m = (m << 1) + bit(probs, base + m);
    return m - (1 << bits);
  }
  function reverse(probs, base, bits) {
    let m = 1;
    let symbol = 0;
    for (let i = 0; i < bits; i++) {
      const b = bit(probs, base + m);
      m = (m << 1) + b;
      symbol |= b << i;
    }
    return symbol;
  }
  const probs = (n) => new Uint16Array(n).fill(1024);
  function lengths() {
    const choice = probs(2);
    const low = probs(16 << 3);
    const mid = probs(16 << 3);
    const high = probs(256);
    return (posState) => {
      if (bit(choice, 0) === 0) return tree(low, posState << 3, 3);
      if (bit(choice, 1) === 0) return 8 + tree(mid, posState << 3, 3);
      return 16 + tree(high, 0, 8);
    };
  }

  const literals = probs(0x300 << (lc + lp));
  const isMatch = probs(12 << 4);
  const isRep = probs(12);
  const isRepG0 = probs(12);
  const isRepG1 = probs(12);
  const isRepG2 = probs(12);
  const isRep0Long = probs(12 << 4);
  const posSlots = probs(4 << 6);
  const posDecoders = probs(115);
  const align = probs(16);
  const matchLength = lengths();
  const repLength = lengths();
  let state = 0;
  let rep0 = 0;
  let rep1 = 0;
  let rep2 = 0;
  let rep3 = 0;

  function grow(need) {
    if (need <= out.length) return;
    if (size >= 0) throw new Error('unlzma: longer than its header says');
    const bigger = new Uint8Array(Math.max(need, out.length * 2));
    bigger.set(out);
    out = bigger;
  }

  while (size < 0 || at < size) {
    const posState = at & ((1 << pb) - 1);
    if (bit(isMatch, (state << 4) + posState) === 0) {
      const previous = at > 0 ? out[at - 1] : 0;
      const base = 0x300 * (((at & ((1 << lp) - 1)) << lc) + (previous >> (8 - lc)));
      let symbol = 1;
      if (state >= 7) {
        let matchByte = out[at - rep0 - 1];
        do {
          const matchBit = (matchByte >> 7) & 1;
          matchByte <<= 1;
          const b = bit(literals, base + ((1 + matchBit) << 8) + symbol);
          symbol = (symbol << 1) | b;
          if (matchBit !== b) break;
        } while (symbol < 0x100);
      }
      while (symbol < 0x100) symbol = (symbol << 1) | bit(literals, base + symbol);
      grow(at + 1);
      out[at++] = symbol - 0x100;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let length;
    if (bit(isRep, state) === 1) {
      if (at === 0) throw new Error('unlzma: damaged');
      if (bit(isRepG0, state) === 0) {
        if (bit(isRep0Long, (state << 4) + posState) === 0) {
          state = state < 7 ? 9 : 11;
          grow(at + 1);
          out[at] = out[at - rep0 - 1];
          at++;
          continue;
        }
      } else {
        let distance;
        if (bit(isRepG1, state) === 0) {
          distance = rep1;
        } else {
          if (bit(isRepG2, state) === 0) {
            distance = rep2;
          } else {
            distance = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = distance;
      }
      length = repLength(posState);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      length = matchLength(posState);
      state = state < 7 ? 7 : 10;
      const slot = tree(posSlots, Math.min(length, 3) << 6, 6);
      if (slot < 4) {
        rep0 = slot;
      } else {
        const bits = (slot >> 1) - 1;
        rep0 = (2 | (slot & 1)) * 2 ** bits;
        if (slot < 14) rep0 += reverse(posDecoders, rep0 - slot, bits);
        else rep0 += direct(bits - 4) * 16 + reverse(align, 0, 4);
        // The end marker.
        if (rep0 === 0xffffffff) break;
      }
      if (rep0 >= at) throw new Error('unlzma: damaged');
    }
    length += 2;
    grow(at + length);
    if (size >= 0 && at + length > size) throw new Error('unlzma: longer than its header says');
    for (let i = 0; i < length; i++, at++) out[at] = out[at - rep0 - 1];
  }
  return out.subarray(0, at);
}
