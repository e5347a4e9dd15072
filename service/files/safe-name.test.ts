// Every name from outside becomes a safe base name: no way up or out, nothing hidden, never empty,
// within the file system's 255 bytes, and otherwise the name the user gave.
import fc from 'fast-check';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveInside } from './inside-dir';
import { capNameBytes, FALLBACK_NAME, MAX_NAME_BYTES, safeFileName, safeFileNameWithSuffix } from './safe-name';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('safeFileName', () => {
  it.each([
    ['../../service.sqlite', 'service.sqlite'],
    ['../../../../../etc/passwd', 'passwd'],
    ['/etc/passwd', 'passwd'],
    ['..\\..\\service.sqlite', 'service.sqlite'],
    ['C:\\Users\\me\\photo.jpg', 'photo.jpg'],
    ['dir/sub\\mixed/name.png', 'name.png'],
  ])('keeps only the last path segment of %j', (raw, safe) => {
    expect(safeFileName(raw)).toBe(safe);
  });

  it.each(['..', '.', '...', '/', '\\', '', '   ', '../', '..\\..\\', '\0', '\u0001\u001f\u007f', '.. ..', ' . . ', '.\u0000.'])('never gives an empty, "." or ".." name for %j', (raw) => {
    expect(safeFileName(raw)).toBe(FALLBACK_NAME);
  });

  it('drops NUL and control characters, which would cut or hide part of a path', () => {
    expect(safeFileName('photo\0.jpg')).toBe('photo.jpg');
    expect(safeFileName('a\nb\tc\r\u0085.jpg')).toBe('abc.jpg');
    expect(safeFileName('evil.jpg\0../../x')).toBe('x');
  });

  it('does not make hidden files: leading dots go', () => {
    expect(safeFileName('.bashrc')).toBe('bashrc');
    expect(safeFileName('...secret.txt')).toBe('secret.txt');
    expect(safeFileName('../.ssh/.authorized_keys')).toBe('authorized_keys');
  });

  it('keeps Unicode, inner spaces and characters that are legal in names', () => {
    expect(safeFileName('Zoë & 写真 (final) #2: 100%? [a].jpg')).toBe('Zoë & 写真 (final) #2: 100%? [a].jpg');
    expect(safeFileName('  padded name.txt  ')).toBe('padded name.txt');
    expect(safeFileName('photo.final.JPG')).toBe('photo.final.JPG');
  });

  it('caps the name at 255 bytes and keeps the extension', () => {
    const long = `${'a'.repeat(300)}.jpg`;
    const safe = safeFileName(long);
    expect(bytes(safe)).toBe(MAX_NAME_BYTES);
    expect(safe.endsWith('.jpg')).toBe(true);
    // Multi-byte characters are never cut in half.
    const wide = safeFileName(`${'é'.repeat(200)}.jpeg`);
    expect(bytes(wide)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(wide).toMatch(/^é+\.jpeg$/u);
    const emoji = safeFileName(`${'😀'.repeat(100)}.png`);
    expect(bytes(emoji)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(emoji).toMatch(/^(😀)+\.png$/u);
    expect(emoji).not.toContain('\uFFFD');
  });

  it('cuts a name whose "extension" is itself huge without keeping it whole', () => {
    const safe = safeFileName(`x.${'b'.repeat(400)}`);
    expect(bytes(safe)).toBe(MAX_NAME_BYTES);
    expect(safe.startsWith('x.b')).toBe(true);
    expect(capNameBytes('short.txt')).toBe('short.txt');
  });

  it('applies Windows rules on request: reserved characters, device names, trailing dots', () => {
    expect(safeFileName('a:b?c*d|e"f<g>h.jpg', { windows: true })).toBe('a_b_c_d_e_f_g_h.jpg');
    expect(safeFileName('CON', { windows: true })).toBe('_CON');
    expect(safeFileName('nul.txt', { windows: true })).toBe('_nul.txt');
    expect(safeFileName('name. . .', { windows: true })).toBe('name');
    expect(safeFileName('console.txt', { windows: true })).toBe('console.txt');
  });

  it('keeps a suffix of the service whole when a long name is cut, so numbered outputs stay apart', () => {
    const stem = `../${'ø'.repeat(200)}`;
    const names = [0, 1, 2].map((i) => safeFileNameWithSuffix(stem, `_${i}.jpg`));
    expect(new Set(names).size).toBe(3);
    for (const [i, name] of names.entries()) {
      expect(bytes(name)).toBeLessThanOrEqual(MAX_NAME_BYTES);
      expect(name).toMatch(new RegExp(`^ø+_${i}\\.jpg$`, 'u'));
    }
    expect(safeFileNameWithSuffix('../../service', '.jpg')).toBe('service.jpg');
    expect(safeFileNameWithSuffix('..', '.png')).toBe('file.png');
    expect(safeFileNameWithSuffix('short', '.tar.gz')).toBe('short.tar.gz');
  });
});

describe('safeFileName on any input', () => {
  // Path pieces, dots, separators, controls and wide characters, mixed at random.
  const piece = fc.oneof(fc.constantFrom('..', '.', '/', '\\', '\0', '\n', ' ', ':', '%', 'C:', 'é', '😀', '.jpg'), fc.string({ unit: 'binary' }));
  const hostile = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));
  const dir = resolve('/data/assemblies/x/results/0-step/id');

  it('always gives one visible, non-empty name of at most 255 bytes that stays in its folder', () => {
    fc.assert(
      fc.property(hostile, fc.boolean(), (raw, windows) => {
        const name = safeFileName(raw, { windows });
        expect(name).not.toBe('');
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_NAME_BYTES);
        // eslint-disable-next-line no-control-regex -- control characters are what this checks for
        expect(name).not.toMatch(/[/\\\u0000-\u001f\u007f-\u009f]/);
        expect(name.startsWith('.')).toBe(false);
        expect(resolveInside(dir, name)).toBe(`${dir}/${name}`);
      }),
      { numRuns: 2000 },
    );
  });
});
