import { describe, expect, it } from 'vitest';
import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import { fileRows, type LocalFile } from './assembly-files';

const local = (id: string, relativePath: string, size: number, state: string, bytesSent = size, error: string | null = null): LocalFile => ({ id, relativePath, size, bytesSent, state, error, note: null });

describe('fileRows', () => {
  it('puts each sent file with the upload it became, then the uploads another client sent', () => {
    const status = {
      ok: 'ASSEMBLY_EXECUTING',
      uploads: [
        { id: 'u2', name: 'b.jpg', size: 20, user_meta: { relative_path: 'trip/b.jpg' } },
        { id: 'u9', name: 'other.png', size: 5 },
      ],
      results: { small: [{ id: 'r1', original_id: 'u2', name: 'b.jpg' }] },
    } as AssemblyStatus;
    const rows = fileRows(status, [local('1', 'trip/a.jpg', 10, 'uploading', 5), local('2', 'trip/b.jpg', 20, 'verified')], new Map([['u2', 40]]));
    expect(rows.map((r) => [r.name, r.local, r.upload?.id ?? null, r.sending?.text ?? null, r.processing, r.outcome?.text ?? null])).toEqual([
      ['trip/a.jpg', true, null, 'Uploading 50 %', null, null],
      ['trip/b.jpg', true, 'u2', 'Uploaded · verified', 40, '1 result so far'],
      ['other.png', false, 'u9', null, null, null],
    ]);
  });

  it('once it ended: a file never sent says so, and every upload its results or why none', () => {
    const status = {
      ok: null,
      error: 'INVALID_INPUT_ERROR',
      message: 'bad',
      step: 'small',
      uploads: [{ id: 'u1', name: 'a.jpg', size: 10 }],
      warnings: [{ level: 'warning', msg: 'skipped', original_id: 'u1', reason: 'Empty file (0 bytes)', step: 'small' }],
    } as unknown as AssemblyStatus;
    const rows = fileRows(status, [local('1', 'a.jpg', 10, 'verified'), local('2', 'late.jpg', 3, 'queued', 0)], new Map([['u1', 50]]));
    expect(rows.map((r) => [r.name, r.sending?.text, r.processing, r.outcome?.text])).toEqual([
      ['a.jpg', 'Uploaded · verified', null, 'No result: Empty file (0 bytes) (step "small")'],
      ['late.jpg', 'Not uploaded', null, undefined],
    ]);
  });
});
