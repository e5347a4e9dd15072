import { describe, expect, it } from 'vitest';
import { lineOfPath, parseJsonWithPosition, positionAt } from './json-position';

const errorOf = (text: string) => {
  const r = parseJsonWithPosition(text);
  if (r.ok) throw new Error('expected a syntax error');
  return r.error;
};

describe('parseJsonWithPosition', () => {
  it('parses valid JSON to the same value as JSON.parse', () => {
    const text = '{"a": [1, -2.5e3, true, null, "x\\n\\u00e9"], "b": {}}';
    expect(parseJsonWithPosition(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it('points at a trailing comma with line and column', () => {
    const text = '{\n  "a": {\n    "robot": "/upload/handle",\n  }\n}';
    const e = errorOf(text);
    expect(e.message).toBe('Unexpected token } at line 4, column 3');
    expect(e.expected).toMatch(/trailing comma/);
    expect(text[e.offset]).toBe('}');
  });

  it('reports a missing comma between properties', () => {
    const e = errorOf('{\n  "a": 1\n  "b": 2\n}');
    expect(e.message).toBe('Unexpected token " at line 3, column 3');
    expect(e.expected).toBe("',' or '}'");
  });

  it('reports single quotes, bare words and unterminated input', () => {
    expect(errorOf("{'a': 1}").message).toBe("Unexpected token ' at line 1, column 2");
    expect(errorOf('{"a": yes}').message).toBe('Unexpected token yes at line 1, column 7');
    expect(errorOf('{"a": [1, 2').message).toBe('Unexpected end of input at line 1, column 12');
    expect(errorOf('{"a": "open\n"}').message).toMatch(/^Unexpected line break at line 1, column 12/);
    expect(errorOf('').message).toBe('Unexpected end of input at line 1, column 1');
    expect(errorOf('{} x').message).toBe('Unexpected token x at line 1, column 4');
  });

  it('counts columns from 1 on each line', () => {
    expect(positionAt('ab\ncd', 4)).toEqual({ offset: 4, line: 2, column: 2 });
  });
});

describe('lineOfPath', () => {
  const text = '{\n  "steps": {\n    "a": { "robot": "/x" },\n    "b": {\n      "use": ["a", "c"],\n      "width": 5\n    }\n  }\n}';
  it('finds the line of a key by its path, or of the deepest part that exists', () => {
    expect(lineOfPath(text, ['steps'])).toBe(2);
    expect(lineOfPath(text, ['steps', 'a', 'robot'])).toBe(3);
    expect(lineOfPath(text, ['steps', 'b', 'width'])).toBe(6);
    expect(lineOfPath(text, ['steps', 'b', 'height'])).toBe(4);
    expect(lineOfPath(text, ['other'])).toBeNull();
    expect(lineOfPath('{ "a": ', ['a'])).toBeNull();
  });
  it('does not mistake a value or a nested key of the same name for the key', () => {
    const tricky = '{\n  "x": "steps",\n  "y": { "steps": 1 },\n  "steps": {}\n}';
    expect(lineOfPath(tricky, ['steps'])).toBe(4);
  });
});
