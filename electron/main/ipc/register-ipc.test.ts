import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../core/create-core';
import { testCorePorts } from '../../core/testing/test-core';
import { createFileSecretStore } from '../../core/vault/file-secret-store';
import { handleInvoke, handlePick, handlePickFolder, SENDER_REJECTED } from './register-ipc';

/** What Electron's IpcMainInvokeEvent carries about the sender frame (only the fields the check reads). */
const frame = (url: string, parent: object | null = null) => ({ senderFrame: { url, parent } }) as never;

describe('Electron IPC entry (handleInvoke) against the real core', () => {
  let dir: string;
  let core: Core;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'register-ipc-'));
    core = await createCore(
      testCorePorts(dir, {
        secretStore: createFileSecretStore(path.join(dir, 'secrets.json')),
        host: 'electron',
        version: 'test',
      }),
    );
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

  it('turns the folders picked in the native dialog into handles for the draft; a canceled dialog is null', async () => {
    const shoot = path.join(dir, 'shoot');
    await mkdir(path.join(shoot, 'sub'), { recursive: true });
    await writeFile(path.join(shoot, 'sub', 'b.jpg'), 'bytes');
    // The dialog itself needs a display; what it answers is what the user chose.
    const chose = (paths: string[] | null) => async () => paths;
    expect(await handlePickFolder(core, frame('https://evil.example/'), chose([shoot]))).toMatchObject({ ok: false, error: { code: SENDER_REJECTED } });
    expect(await handlePickFolder(core, frame('app://app/'), chose(null))).toEqual({ ok: true, value: null });
    const picked = await handlePickFolder(core, frame('app://app/'), chose([shoot]));
    if (!picked.ok || !picked.value) throw new Error('no folder picked');
    const added = await handleInvoke(core, frame('app://app/'), { channel: 'drafts:add', request: { handles: picked.value.map((r) => r.handle) } });
    expect(added.ok).toBe(true);
    await core.drafts.idle();
    const rows = await handleInvoke(core, frame('app://app/'), { channel: 'drafts:rows', request: { offset: 0, limit: 10 } });
    expect(rows).toMatchObject({ ok: true, value: { total: 1, rows: [{ relativePath: 'shoot/sub/b.jpg', name: 'b.jpg', size: 5 }] } });
    const failing = await handlePickFolder(core, frame('app://app/'), async () => {
      throw new Error('no display');
    });
    expect(failing).toMatchObject({ ok: false, error: { code: 'INTERNAL_ERROR' } });
  });
});
