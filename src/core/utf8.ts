/**
 * Finding bytes that are not UTF-8 (a memory saved as Latin-1 or Windows-1252): decoding
 * them would turn each into U+FFFD, and writing the text back would lose the original bytes.
 */

/**
 * Where the first byte sequence that is not valid UTF-8 starts (offset and 1-based line),
 * or `undefined` when all of it is valid. Overlong forms, surrogates and code points above
 * U+10FFFF are invalid, as the WHATWG decoder says.
 *
 * @example
 * findInvalidUtf8(new Uint8Array([0x63, 0x61, 0x66, 0xe9])) // { offset: 3, line: 1 }
 * findInvalidUtf8(new TextEncoder().encode('café')) // undefined
 */
export function findInvalidUtf8(bytes: Uint8Array): { offset: number; line: number } | undefined {
  let line = 1;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      if (b === 0x0a) line++;
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let cp: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min, cp] = [1, 0x80, b & 0x1f];
    else if (b >= 0xe0 && b <= 0xef) [need, min, cp] = [2, 0x800, b & 0x0f];
    else if (b >= 0xf0 && b <= 0xf4) [need, min, cp] = [3, 0x10000, b & 0x07];
    else return { offset: i, line };
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return { offset: i, line };
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return { offset: i, line };
    i += need + 1;
  }
  return undefined;
}
