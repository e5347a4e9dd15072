import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../core/create-core';
import { createFileSecretStore } from '../../core/vault/file-secret-store';
import { handleInvoke, handlePick, SENDER_REJECTED } from './register-ipc';
import { createRecordingDesktop } from '../../core/ports/recording-desktop';

/** What Electron's IpcMainInvokeEvent carries about the sender frame (only the fields the check reads). */
const frame = (url: string, parent: object | null = null) => ({ senderFrame: { url, parent } }) as never;

describe('Electron IPC entry (handleInvoke) against the real core', () => {
  let dir: string;
  let core: Core;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'register-ipc-'));
    core = await createCore({
      dataDir: path.join(dir, 'data'),
      downloadsDir: path.join(dir, 'downloads'),
      secretStore: createFileSecretStore(path.join(dir, 'secrets.json')),
      desktop: createRecordingDesktop(),
      host: 'electron',
      version: 'test',
    });
  });
  afterAll(async () => {
    await core?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers our page with the real core', async () => {
    const result = await handleInvoke(core, frame('app://app/index.html'), { channel: 'app:info', request: {} });
    expect(result).toMatchObject({ ok: true, value: { host: 'electron', version: 'test' } });
  });
  it('refuses an iframe or a foreign page before any handler runs', async () => {
    const fromIframe = await handleInvoke(core, frame('app://app/index.html', {}), { channel: 'app:info', request: {} });
    expect(fromIframe).toMatchObject({ ok: false, error: { code: SENDER_REJECTED } });
    const foreign = await handleInvoke(core, frame('https://evil.example/'), { channel: 'app:info', request: {} });
    expect(foreign).toMatchObject({ ok: false, error: { code: SENDER_REJECTED } });
  });
  it('turns malformed messages into contract errors, not crashes', async () => {
    expect(await handleInvoke(core, frame('app://app/'), null)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    expect(await handleInvoke(core, frame('app://app/'), { channel: 'runs:get', request: { runId: 5 } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_IPC_REQUEST' },
    });
  });
  it("turns the preload's picked paths into handles the page can scan, and only for our page", async () => {
    const photos = path.join(dir, 'photos');
    await mkdir(photos, { recursive: true });
    await writeFile(path.join(photos, 'a.txt'), 'hi');
    expect(handlePick(core, frame('https://evil.example/'), { paths: [photos] })).toMatchObject({ ok: false, error: { code: SENDER_REJECTED } });
    expect(handlePick(core, frame('app://app/'), { paths: ['relative/dir'] })).toMatchObject({ ok: false, error: { code: 'INVALID_IPC_REQUEST' } });
    const picked = handlePick(core, frame('app://app/'), { paths: [photos] });
    if (!picked.ok) throw new Error(picked.error.message);
    const [root] = picked.value;
    expect(root?.handle).toMatch(/^fh_/);
    const scan = await handleInvoke(core, frame('app://app/'), { channel: 'files:scan', request: { handles: [root?.handle] } });
    expect(scan).toMatchObject({ ok: true, value: { files: [{ handle: root?.handle, relativePath: 'photos/a.txt', name: 'a.txt', size: 2 }] } });
    expect(JSON.stringify(scan)).not.toContain(dir);
  });
});
