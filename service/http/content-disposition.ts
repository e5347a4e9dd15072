// Reading a multipart part's Content-Disposition the way every client writes it (docs/local-service.md
// "File names in multipart bodies"). Pure.
//
// Clients disagree: browsers, Node's fetch, the `form-data` package since 4.0.4 (the vendor Node SDK's)
// and curl write the UTF-8 name raw in `filename="…"` with `"`, CR and LF as %22, %0D, %0A and a backslash
// left as it is (WHATWG); older `form-data` writes the name raw with nothing escaped; others escape `"` and `\` with a backslash (RFC 2616 quoted-pair) and/or
// add an RFC 5987 `filename*=UTF-8''…` — some with characters left unescaped that RFC 5987 does not allow
// (`( ) ' * !`, as `encodeURIComponent` leaves them). A strict parser (busboy's) refuses the last three
// kinds, and the part is then dropped without a word: the reader below accepts all of them.

export interface Disposition {
  /** `form-data` for every part of a form (lower-cased). */
  type: string;
  /** The field name, as sent (bytes read as UTF-8 where they are valid UTF-8). */
  name: string | null;
  /** The file name, decoded; null for a part without one (a text field). */
  filename: string | null;
}

export interface DispositionOptions {
  /**
   * The request came from a browser (Sec-Fetch-Mode): `%22`, `%0D`, `%0A` in `filename` are its spelling of
   * `"`, CR, LF even beside a raw `"` (which it never writes). Any other client's are read so too, unless a
   * raw `"` in the same value shows it escapes nothing.
   */
  browser?: boolean;
}

const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
/** What follows the closing quote of a quoted value: the end, or the next parameter a form part carries. */
const AFTER_CLOSING_QUOTE = /^[ \t]*(?:$|;[ \t]*(?:name|filename\*?)[ \t]*=)/i;

// ignoreBOM keeps a leading U+FEFF: it is part of the name (a decoder would drop it by default).
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes (a latin1 "binary" string) as UTF-8 where they are valid UTF-8, else as latin1 (each byte a character). */
export function decodeHeaderBytes(binary: string): string {
  if (!/[\x80-\xff]/.test(binary)) return binary;
  try {
    return utf8.decode(Buffer.from(binary, 'latin1'));
  } catch {
    return binary;
  }
}

/** `%XX` decoded to bytes; any other character (even one RFC 5987 forbids) is taken as it is. Returns a binary string. */
function percentDecode(value: string): string {
  return value.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** An RFC 5987 ext-value (`charset'lang'value`), decoded; null when its charset is unknown or it is not one. */
function decodeExtValue(raw: string): string | null {
  const m = /^([^']*)'[^']*'(.*)$/s.exec(raw.trim());
  if (!m) return null;
  const charset = m[1]!.toLowerCase();
  const bytes = percentDecode(m[2]!);
  if (charset === 'utf-8' || charset === 'utf8' || charset === '') return decodeHeaderBytes(bytes);
  if (charset === 'iso-8859-1' || charset === 'latin1' || charset === 'us-ascii') return bytes;
  return null;
}

/**
 * The parameters of a Content-Disposition value (a binary string: one character per byte), lenient:
 * a quoted value ends at a `"` followed by the end or by the next form parameter; inside it `\"` and
 * `\\` are escapes, another `\` is itself (as busboy and browsers agree), and a `"` that does not end
 * the value is part of it (the vendor SDK does not escape it). Null when there is no type at all.
 */
export function parseDispositionParams(value: string): { type: string; params: Map<string, { value: string; quoted: boolean }> } | null {
  const s = value;
  let i = 0;
  while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  const typeStart = i;
  while (i < s.length && s[i] !== ';' && s[i] !== ' ' && s[i] !== '\t') i++;
  const type = s.slice(typeStart, i).toLowerCase();
  if (type === '') return null;
  const params = new Map<string, { value: string; quoted: boolean }>();
  while (i < s.length) {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === ';')) i++;
    const nameStart = i;
    while (i < s.length && TOKEN_CHAR.test(s[i]!)) i++;
    const name = s.slice(nameStart, i).toLowerCase();
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
    if (name === '' || s[i] !== '=') {
      // Not a parameter: skip to the next `;` (a stray word is no reason to lose the part).
      while (i < s.length && s[i] !== ';') i++;
      continue;
    }
    i++;
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
    let v = '';
    let quoted = false;
    if (s[i] === '"') {
      quoted = true;
      i++;
      for (;;) {
        if (i >= s.length) break; // no closing quote: the value runs to the end
        const ch = s[i]!;
        if (ch === '"' && AFTER_CLOSING_QUOTE.test(s.slice(i + 1))) {
          i++;
          break;
        }
        if (ch === '\\' && (s[i + 1] === '\\' || s[i + 1] === '"')) {
          // `\"` right before the end is a browser's trailing backslash, not an escaped quote.
          if (s[i + 1] === '"' && AFTER_CLOSING_QUOTE.test(s.slice(i + 2))) {
            v += '\\';
            i += 2;
            break;
          }
          v += s[i + 1];
          i += 2;
          continue;
        }
        v += ch;
        i++;
      }
    } else {
      const start = i;
      while (i < s.length && s[i] !== ';') i++;
      v = s.slice(start, i).trim();
    }
    if (!params.has(name)) params.set(name, { value: v, quoted });
  }
  return { type, params };
}

/**
 * What a browser escapes in a form's names (WHATWG "multipart/form-data encoding algorithm"), spelled as it
 * spells them (upper case): a name's own `%0a` is not one of them.
 */
const undoBrowserEscapes = (s: string): string => s.replace(/%22|%0D|%0A/g, (e) => (e === '%22' ? '"' : e === '%0D' ? '\r' : '\n'));

export type DispositionResult = { ok: true; disposition: Disposition } | { ok: false; reason: string };

/**
 * A part's disposition: the field name, and the file name from a decodable `filename*` first, else
 * `filename`. A name is never cut to a path's last segment here: `\` is a legal character on Linux and
 * macOS (the caller cuts at `/`). Not ok when the part cannot be read: no disposition, not `form-data`,
 * or a `filename*` in a charset nobody knows with no `filename` beside it.
 */
export function readDisposition(headerValue: string | undefined, o: DispositionOptions = {}): DispositionResult {
  if (headerValue === undefined) return { ok: false, reason: 'it has no Content-Disposition header' };
  const parsed = parseDispositionParams(headerValue);
  if (!parsed) return { ok: false, reason: 'its Content-Disposition header is empty' };
  if (parsed.type !== 'form-data') return { ok: false, reason: `its Content-Disposition is "${parsed.type}", not "form-data"` };
  // WHATWG's `%22 %0D %0A` are undone for every client (browsers, fetch, `form-data` ≥ 4.0.4, curl -F all
  // write them), unless a `"` stands raw in the value: a client that writes `"` raw escapes nothing.
  const undo = (s: string): string => (o.browser || !s.includes('"') ? undoBrowserEscapes(s) : s);
  const name = parsed.params.get('name');
  const ext = parsed.params.get('filename*');
  const plain = parsed.params.get('filename');
  let filename: string | null = null;
  const fromExt = ext ? decodeExtValue(ext.value) : null;
  if (fromExt !== null && fromExt !== '') filename = fromExt;
  else if (plain) filename = undo(decodeHeaderBytes(plain.value));
  else if (ext && fromExt === null) return { ok: false, reason: `its filename* cannot be decoded (${JSON.stringify(ext.value.slice(0, 40))})` };
  else if (ext) filename = '';
  return { ok: true, disposition: { type: parsed.type, name: name ? undo(decodeHeaderBytes(name.value)) : null, filename } };
}
