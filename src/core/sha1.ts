/**
 * SHA-1 in plain JavaScript, for the few hashes a short command makes: `node:crypto` costs
 * ~6 ms to load (its modules and OpenSSL's set-up), more than a `remember` spends on anything
 * else but its query. The hash of a text is that of its UTF-8 bytes, as `crypto.hash('sha1',
 * text, 'hex')` gives (a test compares the two on random texts). No library fits: the one in
 * the dependency tree (`sha.js`) pulls in a dozen polyfill modules whose set-up would cost
 * what this saves.
 */

/** SHA-1 of `bytes`, in lowercase hex. */
export function sha1Hex(bytes: Uint8Array): string {
  const length = bytes.length;
  // The message, a 1 bit, zeros, and the length in bits as a 64-bit big-endian number.
  const padded = new Uint8Array((((length + 8) >>> 6) + 1) << 6);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length << 3) >>> 0);
  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  const w = new Int32Array(80);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getInt32(block + 4 * i);
    for (let i = 16; i < 80; i++) {
      const x = w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!;
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let i = 0; i < 80; i++) {
      const f = i < 20 ? (b & c) | (~b & d) : i < 40 ? b ^ c ^ d : i < 60 ? (b & c) | (b & d) | (c & d) : b ^ c ^ d;
      const k = i < 20 ? 0x5a827999 : i < 40 ? 0x6ed9eba1 : i < 60 ? 0x8f1bbcdc : 0xca62c1d6;
      const t = (((a << 5) | (a >>> 27)) + f + e + k + w[i]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return [h0, h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
}

/**
 * SHA-1 of a text's UTF-8 bytes (a lone surrogate as U+FFFD, as Node's encoding does), in hex.
 *
 * @example
 * sha1OfText('abc') // 'a9993e364706816aba3e25717850c26c9cd0d89d'
 */
export function sha1OfText(text: string): string {
  return sha1Hex((encoder ??= new TextEncoder()).encode(text));
}

let encoder: { encode(text: string): Uint8Array } | undefined;
