import { describe, expect, it } from 'vitest';
import { insideRoot, numberedName, safeRelativePath, safeSegment, targetPath } from './mirror-paths';

describe('safeSegment', () => {
  it('replaces separators, reserved and control characters', () => {
    expect(safeSegment('a/b\\c:d*e?f"g<h>i|j\u0001k')).toBe('a_b_c_d_e_f_g_h_i_j_k');
  });
  it('drops trailing dots and spaces, which Windows strips', () => {
    expect(safeSegment('report. . ')).toBe('report');
  });
  it('never answers `.`, `..` or an empty name', () => {
    expect(safeSegment('..')).toBe('file');
    expect(safeSegment('   ')).toBe('file');
    expect(safeSegment('', 'step')).toBe('step');
  });
  it('prefixes Windows device names, with or without an extension', () => {
    expect(safeSegment('CON')).toBe('_CON');
    expect(safeSegment('nul.txt')).toBe('_nul.txt');
    expect(safeSegment('com1.jpg')).toBe('_com1.jpg');
    expect(safeSegment('console.jpg')).toBe('console.jpg');
  });
  it('shortens long names and keeps the extension', () => {
    const long = safeSegment(`${'x'.repeat(300)}.jpeg`);
    expect(long).toHaveLength(200);
    expect(long.endsWith('.jpeg')).toBe(true);
  });
  it('counts bytes, not characters: 255 bytes a name is the limit on Linux and macOS', () => {
    const emoji = safeSegment(`${'😀'.repeat(60)}.jpg`);
    expect(Buffer.byteLength(emoji)).toBeLessThanOrEqual(200);
    expect(emoji).toBe(`${'😀'.repeat(49)}.jpg`);
    // Cut inside a long extension: no trailing space or dot is left by the cut.
    const oddExt = safeSegment(`a. .9${'n'.repeat(30)} ${'n'.repeat(240)}`);
    expect(Buffer.byteLength(oddExt)).toBeLessThanOrEqual(200);
    expect(oddExt).not.toMatch(/[. ]$/);
  });
});

describe('safeRelativePath', () => {
  it('drops `..`, `.`, empty and absolute parts so nothing climbs out', () => {
    expect(safeRelativePath('/etc/../../photos/./a.jpg')).toBe('etc/photos/a.jpg');
    expect(safeRelativePath('..\\..\\win\\a.jpg')).toBe('win/a.jpg');
  });
});

describe('targetPath', () => {
  const t = { step: 'resized', resultName: 'forest.png', resultExt: 'png', inputPath: 'photos/2024/forest.jpg' };
  it('by step: the input tree under the step, with the result extension', () => {
    expect(targetPath('by-step', t)).toBe('resized/photos/2024/forest.png');
  });
  it("by step: a name whose extension is most of it stays a name the disk takes (the service's lowercased extension put back)", () => {
    const name = `ꍅ𛇙. .9${'n'.repeat(240)} `;
    const rel = targetPath('by-step', { step: ':original', resultName: name, resultExt: name.slice(name.lastIndexOf('.') + 1).toLowerCase(), inputPath: `run/${name}` });
    const last = rel.split('/').pop()!;
    expect(rel.startsWith('original/run/')).toBe(true);
    expect(Buffer.byteLength(last)).toBeLessThanOrEqual(200);
    expect(last).not.toMatch(/[. ]$/);
  });
  it('flat: the result name under the step', () => {
    expect(targetPath('flat', t)).toBe('resized/forest.png');
  });
  it('by folder: the input folder, the step as a prefix', () => {
    expect(targetPath('by-folder', t)).toBe('photos/2024/resized-forest.png');
    expect(targetPath('by-folder', { ...t, inputPath: 'top.jpg' })).toBe('resized-forest.png');
  });
  it('a result with no known input goes by its own name', () => {
    expect(targetPath('by-step', { ...t, inputPath: null })).toBe('resized/forest.png');
  });
  it('sanitises the step and hostile input paths', () => {
    expect(targetPath('by-step', { step: ':original', resultName: 'a.jpg', resultExt: 'jpg', inputPath: '../../../etc/CON.jpg' })).toBe('original/etc/_CON.jpg');
  });
});

describe('numberedName and insideRoot', () => {
  it('numbers before the extension', () => {
    expect(numberedName('resized/a/b.png', 2)).toBe('resized/a/b (2).png');
    expect(numberedName('README', 3)).toBe('README (3)');
    // A second copy of a copy counts on, rather than stacking numbers.
    expect(numberedName('resized/a (2).png', 3)).toBe('resized/a (3).png');
    expect(numberedName('a (12)', 13)).toBe('a (13)');
    expect(numberedName('(2).png', 2)).toBe('(2) (2).png');
  });
  it('refuses paths that leave the root', () => {
    expect(insideRoot('/out', 'a/b.png')).toBe('/out/a/b.png');
    expect(insideRoot('/out', '../x.png')).toBeNull();
    expect(insideRoot('/out', '')).toBeNull();
  });
});
