// What tests of tus uploads build their requests from: Upload-Metadata, and bytes in which a part out of
// place changes the md5.

/** An Upload-Metadata header value: each key with its value in base64. */
export const uploadMetadata = (fields: Record<string, string>): string =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

/** `size` bytes that differ everywhere (xorshift from `seed`): a shifted or swapped part changes the md5. */
export function distinctBytes(size: number, seed: number): Buffer {
  const b = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 255;
  }
  return b;
}
