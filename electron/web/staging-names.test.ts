// Every name a file system allows, through the real browser host (staging by PUT, the contract over the
// page's WebSocket) and the real core: odd characters, very deep paths, and files the page cannot read.
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { DraftRow, DraftSkip, DraftSummary } from '../../shared/ipc/transfer-models';
import { encodeStagingUrl } from './page/page-bridge-logic';
import { MAX_DISK_NAME_BYTES } from './staging-path';
import { startTestHost, type TestHost } from './testing/test-host';

let t: TestHost;

function send(method: 'PUT' | 'POST', urlPath: string, body: string | Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: t.host.port, method, path: urlPath, headers: { host: `127.0.0.1:${t.host.port}`, ...t.own } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function invoke<T>(channel: string, request: unknown): Promise<T> {
  const ws = new WebSocket(`ws://127.0.0.1:${t.host.port}/bridge`, { headers: t.own });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const answer = new Promise<{ result: { ok: boolean; value?: T; error?: { code: string; message: string } } }>((resolve) =>
    ws.on('message', (d) => {
      const m = JSON.parse(String(d));
      if (m.id === 1) resolve(m);
    }),
  );
  ws.send(JSON.stringify({ id: 1, channel, request }));
  const { result } = await answer;
  ws.close();
  if (!result.ok) throw new Error(`${channel}: ${result.error?.code} ${result.error?.message}`);
  return result.value as T;
}

beforeAll(async () => {
  t = await startTestHost({ prefix: 'al-names-' });
}, 60_000);
afterAll(() => t?.close());

const handleOf = (r: { body: string }) => (JSON.parse(r.body) as { handle: string }).handle;

describe('browser host staging: every name a file system allows', () => {
  const odd = ['Interview: take 2.jpg', 'what?.jpg', '#1 shot.jpg', '100%.jpg', '%41.jpg', 'back\\slash.jpg', 'a%2Fb.jpg', 'tab\there.jpg', 'new\nline.jpg', 'ends with dot.', ' lead space.jpg', 'ü €.jpg'];
  // 4,000 characters: deeper than macOS allows in one path, as deep as Linux allows.
  const deep = `${Array.from({ length: 40 }, (_, i) => `level-${String(i).padStart(2, '0')}-${'x'.repeat(88)}`).join('/')}/deep file.jpg`;

  it('stages odd names and a 4,000-character path, and the draft shows them under their own names', async () => {
    const paths = [...odd.map((n) => `shoot/${n}`), `shoot/${deep}`];
    expect(paths.at(-1)!.length).toBeGreaterThan(4_000 - 100);
    let handle = '';
    for (const [i, relativePath] of paths.entries()) {
      const res = await send('PUT', encodeStagingUrl('odd1', relativePath), `bytes ${i}`);
      expect(res.status, `${relativePath.slice(0, 60)}: ${res.body}`).toBe(201);
      handle = handleOf(res);
    }
    await invoke('drafts:clear', {});
    await invoke<DraftSummary>('drafts:add', { handles: [handle] });
    await t.core.drafts.idle();
    const page = await invoke<{ total: number; rows: DraftRow[] }>('drafts:rows', { offset: 0, limit: 100 });
    expect(page.rows.map((r) => r.relativePath).sort()).toEqual([...paths].sort());
    expect(page.rows.find((r) => r.relativePath.endsWith('deep file.jpg'))).toMatchObject({ name: 'deep file.jpg', size: `bytes ${paths.length - 1}`.length });
    // On disk every name is short and every path fits a file system's limit; the user never sees those.
    const onDisk = await readdir(path.join(t.core.stagingDir, 'odd1', 'shoot'));
    for (const name of onDisk) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_DISK_NAME_BYTES);
    // And each one can be read back through its handle by the name the user knows.
    const deepRow = page.rows.find((r) => r.relativePath.endsWith('deep file.jpg'))!;
    expect(t.core.files.resolve(deepRow.handle, deepRow.relativePath).ok).toBe(true);
    // The old scan path agrees.
    const scan = await invoke<{ files: { relativePath: string }[] }>('files:scan', { handles: [handle] });
    expect(scan.files.map((f) => f.relativePath).sort()).toEqual(paths.filter((p) => !p.slice(6).startsWith('.')).sort());
  }, 30_000);

  it('lists a file the page could not read under drafts:skipped with its reason, and adds the rest', async () => {
    const ok = await send('PUT', encodeStagingUrl('unread1', 'card/DCIM/ok.jpg'), 'fine');
    expect(ok.status).toBe(201);
    const report = await send('POST', encodeStagingUrl('unread1', 'card'), JSON.stringify({ relativePath: 'card/DCIM/locked.jpg', unreadable: 'NotReadableError: permission denied' }));
    expect(report.status, report.body).toBe(200);
    expect(handleOf(report)).toBe(handleOf(ok));
    // A loose file whose bytes never arrived: a root of its own, nothing on disk.
    const loose = await send('POST', encodeStagingUrl('unread1', 'gone.mov'), JSON.stringify({ relativePath: 'gone.mov', unreadable: 'it is no longer on disk' }));
    expect(loose.status).toBe(200);

    await invoke('drafts:clear', {});
    await invoke('drafts:add', { handles: [handleOf(ok), handleOf(loose)] });
    await t.core.drafts.idle();
    expect(await invoke<DraftSummary>('drafts:get', {})).toMatchObject({ files: 1, unreadable: 2 });
    const skipped = await invoke<{ items: DraftSkip[] }>('drafts:skipped', { offset: 0, limit: 10 });
    expect(skipped.items).toEqual([
      { relativePath: 'card/DCIM/locked.jpg', reason: 'NotReadableError: permission denied' },
      { relativePath: 'gone.mov', reason: 'it is no longer on disk' },
    ]);
    // A report cannot name a path outside its root, nor be anything but a reason and a path.
    const stray = await send('POST', encodeStagingUrl('unread2', 'card'), JSON.stringify({ relativePath: '../../etc/passwd', unreadable: 'x' }));
    expect(stray.status).toBe(200);
    await invoke('drafts:clear', {});
    await invoke('drafts:add', { handles: [handleOf(stray)] });
    await t.core.drafts.idle();
    expect((await invoke<{ items: DraftSkip[] }>('drafts:skipped', { offset: 0, limit: 10 })).items).toEqual([{ relativePath: 'card', reason: 'x' }]);
    expect((await send('POST', encodeStagingUrl('unread3', 'card'), 'not json')).status).toBe(400);
  });

  it('stages names that differ only in case or normalization as files of their own, so a disk that folds them loses none; a PUT sent again replaces its own copy', async () => {
    // A drop from a case-sensitive disk onto a data dir on macOS or Windows: on Linux they are distinct
    // anyway, so what is checked is that no two staged paths fold alike there.
    const paths = ['case/Photo.JPG', 'case/photo.jpg', 'case/caf\u00e9.txt', 'case/cafe\u0301.txt'];
    let handle = '';
    for (const [i, relativePath] of paths.entries()) handle = handleOf(await send('PUT', encodeStagingUrl('case1', relativePath), 'x'.repeat(i + 1)));
    // Sent again (the answer was lost): the same bytes in the same place, not a second file.
    expect((await send('PUT', encodeStagingUrl('case1', 'case/photo.jpg'), 'xx')).status).toBe(201);
    // A bundle of the same drop: its spellings are told apart the same way.
    const more = [{ relativePath: 'case/PHOTO.jpg', bytes: Buffer.from('x'.repeat(5)) }];
    const manifest = JSON.stringify({ files: more.map((f) => ({ relativePath: f.relativePath, size: f.bytes.length })) });
    const bundled = await send('POST', '/staging-bundle/case1', Buffer.concat([Buffer.from(`${manifest}\n`), ...more.map((f) => f.bytes)]));
    expect(bundled.status, bundled.body).toBe(200);
    await invoke('drafts:clear', {});
    await invoke('drafts:add', { handles: [handle] });
    await t.core.drafts.idle();
    const rows = await invoke<{ rows: DraftRow[] }>('drafts:rows', { offset: 0, limit: 10 });
    expect(rows.rows.map((r) => [r.relativePath, r.size]).sort()).toEqual([...paths.map((p, i) => [p, i + 1]), ['case/PHOTO.jpg', 5]].sort());
    const onDisk = await readdir(path.join(t.core.stagingDir, 'case1', 'case'));
    expect(onDisk).toHaveLength(5);
    expect(new Set(onDisk.map((n) => n.normalize('NFC').toLowerCase())).size).toBe(5);
  });

  it('stages many small files in one bundle, each answered on its own, and refuses a bundle whose bytes do not add up', async () => {
    const files = [
      { relativePath: 'bundle/a: one.jpg', bytes: Buffer.from('first') },
      { relativePath: 'bundle/sub/#2 ?.jpg', bytes: Buffer.from('second!') },
      { relativePath: 'bundle/empty.txt', bytes: Buffer.alloc(0) },
      { relativePath: 'bundle/../escape.txt', bytes: Buffer.from('no') },
    ];
    const manifest = JSON.stringify({ files: files.map((f) => ({ relativePath: f.relativePath, size: f.bytes.length })) });
    const body = Buffer.concat([Buffer.from(`${manifest}\n`), ...files.map((f) => f.bytes)]);
    const res = await send('POST', '/staging-bundle/bundle1', body);
    expect(res.status, res.body).toBe(200);
    const { results } = JSON.parse(res.body) as { results: { handle?: string; error?: { code: string } }[] };
    expect(results.slice(0, 3).every((r) => r.handle === results[0]!.handle)).toBe(true);
    expect(results[3]!.error?.code).toBe('STAGING_PATH_INVALID');
    await invoke('drafts:clear', {});
    await invoke('drafts:add', { handles: [results[0]!.handle] });
    await t.core.drafts.idle();
    const rows = await invoke<{ rows: DraftRow[] }>('drafts:rows', { offset: 0, limit: 10 });
    expect(rows.rows.map((r) => [r.relativePath, r.size])).toEqual([
      ['bundle/a: one.jpg', 5],
      ['bundle/empty.txt', 0],
      ['bundle/sub/#2 ?.jpg', 7],
    ]);
    const short = Buffer.concat([Buffer.from(`${JSON.stringify({ files: [{ relativePath: 'x/a', size: 10 }] })}\n`), Buffer.from('only5')]);
    const refused = await send('POST', '/staging-bundle/bundle2', short);
    expect(refused.status).toBe(400);
    expect((JSON.parse(refused.body) as { error: { code: string } }).error.code).toBe('STAGING_BUNDLE_LENGTH_MISMATCH');
    expect((await send('POST', '/staging-bundle/bundle3', 'no manifest')).status).toBe(400);
  });
});
