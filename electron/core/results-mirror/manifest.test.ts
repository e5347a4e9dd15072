import { describe, expect, it } from 'vitest';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { buildManifest, csvCell, manifestCsv, manifestRows, MANIFEST_COLUMNS } from './manifest';
import { matchInputs, resultKey } from './mirror-plan';

const status: AssemblyStatus = {
  ok: 'ASSEMBLY_COMPLETED',
  uploads: [{ id: 'u1', name: 'a, "b".jpg', size: 100, md5hash: 'aa' }],
  results: { resized: [{ id: 'r1', name: 'a, "b".jpg', original_id: 'u1', ssl_url: 'http://h/r1', size: 10, md5hash: 'r1md5' }], joined: [{ id: 'j', name: '=cmd.zip', ssl_url: 'http://h/j' }] },
};

describe('csvCell', () => {
  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
  });
  it('defuses cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-2)).toBe('-2');
  });
});

describe('manifest', () => {
  const sources = [
    { assemblyId: 'a1', status, inputs: matchInputs([{ relativePath: 'p/a, "b".jpg', size: 100 }, { relativePath: 'p/lost.jpg', size: 7, error: 'Could not read it' }], status) },
  ];
  const mirrored = (key: string) => (key === resultKey('a1', 'resized', status.results!.resized![0]!) ? { path: '/out/resized/p/a.jpg', md5: 'r1md5' } : undefined);

  it('nests results under their input; an input without results and a result without input each get a row', () => {
    const m = buildManifest(sources, mirrored);
    expect(m[0]!.inputs[0]!.results).toEqual([{ step: 'resized', name: 'a, "b".jpg', url: 'http://h/r1', size: 10, md5: 'r1md5', localPath: '/out/resized/p/a.jpg', localMd5: 'r1md5' }]);
    expect(m[0]!.inputs[1]).toMatchObject({ path: 'p/lost.jpg', error: 'Could not read it', results: [] });
    expect(m[0]!.otherResults.map((r) => r.name)).toEqual(['=cmd.zip']);
    expect(manifestRows(m)).toHaveLength(3);
  });

  it('writes UTF-8 CSV with a BOM, a header and CRLF rows', () => {
    const csv = manifestCsv(buildManifest(sources, mirrored));
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe(MANIFEST_COLUMNS.join(','));
    expect(lines[1]).toBe('"p/a, ""b"".jpg",100,aa,a1,ASSEMBLY_COMPLETED,,resized,"a, ""b"".jpg",http://h/r1,10,r1md5,/out/resized/p/a.jpg,r1md5');
    expect(lines[2]).toBe('p/lost.jpg,7,,a1,ASSEMBLY_COMPLETED,Could not read it,,,,,,,');
    expect(lines[3]).toBe(",,,a1,ASSEMBLY_COMPLETED,,joined,'=cmd.zip,http://h/j,,,,");
    expect(lines[4]).toBe('');
  });
});
