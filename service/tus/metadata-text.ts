// Upload-Metadata values are base64 of UTF-8 text (service-facts §tus, "Stage 2"): every client the
// vendor names encodes them so, and the service records each value as text (the file's name, its field,
// user_meta). @tus/server decodes any bytes as UTF-8, turning bytes that are not into U+FFFD silently, so a
// name would be recorded other than sent. Such a value is refused instead (TUS_INVALID_METADATA). Pure.

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The first key of an Upload-Metadata header whose value, once its base64 is decoded, is not UTF-8 text;
 * null when every value is (or the header is absent, or malformed: the tus library refuses that itself).
 */
export function keyNotText(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  for (const pair of header.split(',')) {
    const [key, value, ...rest] = pair.split(' ');
    if (!key || !value || rest.length > 0 || !/^[\d+/A-Za-z]*={0,2}$/.test(value)) continue;
    try {
      utf8.decode(Buffer.from(value, 'base64'));
    } catch {
      return key;
    }
  }
  return null;
}

/** What the refusal says: which value, why, and what a client should send. */
export const notTextMessage = (key: string): string =>
  `Upload-Metadata's ${key} is not UTF-8 text once its base64 is decoded, so the service cannot record it as sent. Encode the value as UTF-8 before base64, as tus clients do.`;
