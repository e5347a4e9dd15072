/**
 * JSON parsing that says WHERE it failed. Engines word JSON.parse errors differently and newer V8 drops
 * the position, so a small scanner finds the first error's offset; JSON.parse builds the value once valid.
 */

export interface JsonPosition {
  readonly offset: number;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in characters. */
  readonly column: number;
}

export interface JsonSyntaxError extends JsonPosition {
  /** "Unexpected token } at line 4, column 3". */
  readonly message: string;
  /** What the parser wanted there, e.g. "a property name in double quotes". */
  readonly expected: string;
}

export type JsonParseResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: JsonSyntaxError };

export const positionAt = (text: string, offset: number): JsonPosition => {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { offset, line, column: offset - lineStart + 1 };
};

class SyntaxFailure {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

const describeToken = (text: string, offset: number): string => {
  if (offset >= text.length) return 'Unexpected end of input';
  const ch = text[offset] as string;
  if (ch === '\n') return 'Unexpected line break';
  if (/\s/.test(ch)) return 'Unexpected whitespace';
  const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(offset));
  if (word) return `Unexpected token ${word[0]}`;
  return `Unexpected token ${ch}`;
};

/** Validates JSON by hand (strict RFC 8259), throwing a SyntaxFailure at the first bad character. */
const scan = (text: string, onKey?: (path: readonly string[], offset: number) => void): void => {
  let i = 0;
  // Keys (array items as their index) from the root to the value being read, for onKey.
  const path: string[] = [];
  const fail = (expected: string, at = i): never => {
    throw new SyntaxFailure(at, expected);
  };
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i += 1;
  };
  const literal = (word: string): void => {
    for (let k = 0; k < word.length; k += 1) {
      if (text[i + k] !== word[k]) fail(`"${word}"`, i + k);
    }
    i += word.length;
  };
  const string = (): void => {
    i += 1; // opening quote
    for (;;) {
      if (i >= text.length) fail('a closing " for the string');
      const c = text.charCodeAt(i);
      if (c === 34) {
        i += 1;
        return;
      }
      if (c < 0x20) fail(c === 10 ? 'a closing " before the line break' : 'no control characters in a string');
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('four hex digits after \\u', i + 2);
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          fail('a valid escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)', i + 1);
        }
        continue;
      }
      i += 1;
    }
  };
  const number = (): void => {
    if (text[i] === '-') i += 1;
    if (text[i] === '0') i += 1;
    else if (/[1-9]/.test(text[i] ?? '')) while (/[0-9]/.test(text[i] ?? '')) i += 1;
    else fail('a digit');
    if (text[i] === '.') {
      i += 1;
      if (!/[0-9]/.test(text[i] ?? '')) fail('a digit after the decimal point');
      while (/[0-9]/.test(text[i] ?? '')) i += 1;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i += 1;
      if (text[i] === '+' || text[i] === '-') i += 1;
      if (!/[0-9]/.test(text[i] ?? '')) fail('a digit in the exponent');
      while (/[0-9]/.test(text[i] ?? '')) i += 1;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    if (c === "'") fail('double quotes (") around strings');
    fail('a value (object, array, string, number, true, false or null)');
  };
  const object = (): void => {
    i += 1;
    ws();
    if (text[i] === '}') {
      i += 1;
      return;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') fail(text[i] === '}' ? 'a property name (remove the trailing comma)' : 'a property name in double quotes');
      const keyStart = i;
      string();
      const key = onKey ? (JSON.parse(text.slice(keyStart, i)) as string) : '';
      ws();
      if (text[i] !== ':') fail("':' after the property name");
      i += 1;
      path.push(key);
      onKey?.(path, keyStart);
      value();
      path.pop();
      ws();
      if (text[i] === ',') {
        i += 1;
        continue;
      }
      if (text[i] === '}') {
        i += 1;
        return;
      }
      fail("',' or '}'");
    }
  };
  const array = (): void => {
    i += 1;
    ws();
    if (text[i] === ']') {
      i += 1;
      return;
    }
    for (let index = 0; ; index += 1) {
      ws();
      if (text[i] === ']') fail('a value (remove the trailing comma)');
      path.push(String(index));
      value();
      path.pop();
      ws();
      if (text[i] === ',') {
        i += 1;
        continue;
      }
      if (text[i] === ']') {
        i += 1;
        return;
      }
      fail("',' or ']'");
    }
  };
  value();
  ws();
  if (i < text.length) fail('the end of the input');
};

export const parseJsonWithPosition = (text: string): JsonParseResult => {
  try {
    scan(text);
  } catch (e) {
    if (!(e instanceof SyntaxFailure)) throw e;
    const pos = positionAt(text, e.offset);
    const message = `${describeToken(text, e.offset)} at line ${pos.line}, column ${pos.column}`;
    return { ok: false, error: { ...pos, message, expected: e.expected } };
  }
  return { ok: true, value: JSON.parse(text) as unknown };
};

/**
 * The line (1-based) of the key at `path` in valid JSON text (`["steps", "resized", "width"]`), or of the
 * deepest part of the path that exists; null when not even the first key is there or the text is not JSON.
 * A key given twice counts where it is first given.
 */
export const lineOfPath = (text: string, path: readonly string[]): number | null => {
  let best: { depth: number; offset: number } | null = null;
  try {
    scan(text, (at, offset) => {
      if (at.length > path.length || (best && best.depth >= at.length)) return;
      for (let k = 0; k < at.length; k += 1) if (at[k] !== path[k]) return;
      best = { depth: at.length, offset };
    });
  } catch {
    return null;
  }
  const found = best as { depth: number; offset: number } | null;
  return found ? positionAt(text, found.offset).line : null;
};
