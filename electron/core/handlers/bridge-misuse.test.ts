import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../../../shared/api/presets';
import type { Run } from '../../../shared/ipc/models';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { createRecordingDesktop, type RecordingDesktop } from '../ports/recording-desktop';
import { createFileSecretStore } from '../vault/file-secret-store';

// A compromised page talks to the real core (and the real embedded service) with hostile requests: every
// one is refused with a code, and nothing outside what the user picked is read, fetched or opened.
let dir = '';
let core: Core;
let desktop: RecordingDesktop;
let photos = '';
let picked = '';
let serviceDb = '';
let run: Run;

const codeOf = async (channel: string, request: unknown): Promise<string> => {
  const answer = await dispatch(core.handlers, channel, request);
  return answer.ok ? 'ok' : answer.error.code;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-bridge-misuse-'));
  desktop = createRecordingDesktop();
  core = await createCore(
    testCorePorts(dir, {
      secretStore: createFileSecretStore(path.join(dir, 'secrets.json')),
      desktop,
      version: 'test',
    }),
  );
  serviceDb = path.join(dir, 'data', 'local-service', 'service.sqlite');
  photos = path.join(dir, 'in', 'photos');
  await mkdir(photos, { recursive: true });
  await writeFile(path.join(photos, 'a.txt'), 'picked by the user');
  picked = core.files.register(photos);
  const scan = await core.handlers['files:scan']({ handles: [picked] });
  if (!scan.ok) throw new Error(scan.error.message);
  const steps = PRESETS.find((p) => p.id === 'store-originals')!.steps;
  const started = await core.handlers['runs:start']({ files: scan.value.files, instructions: { steps } });
  if (!started.ok) throw new Error(started.error.message);
  const settled = await core.runs.settled(started.value.runId);
  if (!settled.ok) throw new Error(settled.error.message);
  run = settled.value;
}, 60_000);

afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the bridge refuses a hostile page', () => {
  it('files:scan takes handles only: a raw path, a path posing as a handle, a forged handle', async () => {
    expect(await codeOf('files:scan', { paths: ['/etc/passwd'] })).toBe('INVALID_IPC_REQUEST');
    expect(await codeOf('files:scan', { handles: ['/etc'] })).toBe('FILE_HANDLE_UNKNOWN');
    expect(await codeOf('files:scan', { handles: [serviceDb] })).toBe('FILE_HANDLE_UNKNOWN');
    expect(await codeOf('files:scan', { handles: [picked, 'fh_AAAAAAAAAAAAAAAAAAAAAAAA'] })).toBe('FILE_HANDLE_UNKNOWN');
  });

  it('files:thumbnail stays inside the picked folder', async () => {
    expect(await codeOf('files:thumbnail', { path: '/etc/passwd' })).toBe('INVALID_IPC_REQUEST');
    expect(await codeOf('files:thumbnail', { handle: picked, relativePath: 'photos/../../../../../../etc/passwd' })).toBe('PATH_OUTSIDE_PICK');
    expect(await codeOf('files:thumbnail', { handle: picked, relativePath: path.relative(path.dirname(photos), serviceDb) })).toBe('PATH_OUTSIDE_PICK');
    expect(await codeOf('files:thumbnail', { handle: picked, relativePath: serviceDb })).toBe('PATH_OUTSIDE_PICK');
    expect(await codeOf('files:thumbnail', { handle: picked, relativePath: 'photos/a.txt' })).toBe('ok');
  });

  it("runs:start cannot upload the service's database, /etc/passwd or a forged handle's file", async () => {
    const before = core.runs.list().length;
    const steps = { ':original': { robot: '/upload/handle' } };
    const file = (handle: string, relativePath: string) => ({ handle, relativePath, name: 'x', size: 1, mime: null });
    const escape = path.relative(path.dirname(photos), serviceDb);
    expect(escape.startsWith('..')).toBe(true);
    expect(await codeOf('runs:start', { files: [file(picked, escape)], instructions: { steps } })).toBe('PATH_OUTSIDE_PICK');
    expect(await codeOf('runs:start', { files: [file(picked, 'photos/a.txt'), file(picked, 'photos/../../../etc/passwd')], instructions: { steps } })).toBe(
      'PATH_OUTSIDE_PICK',
    );
    expect(await codeOf('runs:start', { files: [file('fh_forged', 'passwd')], instructions: { steps } })).toBe('FILE_HANDLE_UNKNOWN');
    expect(await codeOf('runs:start', { files: [{ path: '/etc/passwd', relativePath: 'passwd', name: 'passwd', size: 1, mime: null }], instructions: { steps } })).toBe(
      'INVALID_IPC_REQUEST',
    );
    // Refused before anything started: no Assembly, no run.
    expect(core.runs.list()).toHaveLength(before);
  });

  it('a linked folder inside the pick does not lead out of it; a linked file is followed, as the scanner does', async () => {
    const outside = path.join(dir, 'outside');
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(outside, 'secret.txt'), 'not picked');
    const linked = path.join(dir, 'linked');
    await mkdir(linked, { recursive: true });
    await symlink(outside, path.join(linked, 'to-outside'));
    await writeFile(path.join(outside, 'shared.txt'), 'linked on purpose');
    await symlink(path.join(outside, 'shared.txt'), path.join(linked, 'shared.txt'));
    const handle = core.files.register(linked);
    const scan = await core.handlers['files:scan']({ handles: [handle] });
    expect(scan.ok && scan.value.files.map((f) => f.relativePath)).toEqual(['linked/shared.txt']);
    expect(await codeOf('files:thumbnail', { handle, relativePath: 'linked/to-outside/secret.txt' })).toBe('PATH_OUTSIDE_PICK');
    const steps = { ':original': { robot: '/upload/handle' } };
    const file = (relativePath: string) => ({ handle, relativePath, name: 'x', size: 10, mime: null });
    expect(await codeOf('runs:start', { files: [file('linked/to-outside/secret.txt')], instructions: { steps } })).toBe('PATH_OUTSIDE_PICK');
    expect(await codeOf('files:thumbnail', { handle, relativePath: 'linked/shared.txt' })).toBe('ok');
  });

  it("results:download and results:thumbnail fetch only URLs the run's status gave", async () => {
    const result = run.status?.results?.[':original']?.[0];
    expect(result?.ssl_url).toBeTruthy();
    const service = new URL(core.localServiceUrl!);
    for (const url of [
      'file:///etc/passwd',
      `${service.origin}/assemblies`,
      `${result!.ssl_url}/../../../assemblies`,
      'http://169.254.169.254/latest/meta-data/',
      'https://evil.example/a.txt',
    ]) {
      expect(await codeOf('results:download', { runId: run.runId, url, name: 'x.txt' }), url).toBe('URL_NOT_OF_RUN');
      expect(await codeOf('results:thumbnail', { runId: run.runId, url }), url).toBe('URL_NOT_OF_RUN');
    }
    expect(await codeOf('results:download', { runId: 'no-such-run', url: result!.ssl_url, name: 'x.txt' })).toBe('NOT_FOUND');
    expect(await codeOf('results:download', { runId: run.runId, url: result!.ssl_url, name: 'a.txt' })).toBe('ok');
  });

  it('shell:openPath and shell:revealPath touch only what core downloaded', async () => {
    const planted = path.join(dir, 'downloads', 'planted.desktop');
    await mkdir(path.dirname(planted), { recursive: true });
    await writeFile(planted, '[Desktop Entry]\nExec=sh -c "echo owned"\n');
    for (const target of ['/etc/passwd', serviceDb, planted, path.join(dir, 'downloads', '..', 'data', 'local-service', 'service.sqlite'), 'relative/a.txt']) {
      expect(await codeOf('shell:openPath', { path: target }), target).toBe('PATH_NOT_APP_WRITTEN');
      expect(await codeOf('shell:revealPath', { path: target }), target).toBe('PATH_NOT_APP_WRITTEN');
    }
    expect(desktop.opened).toEqual([]);
    expect(desktop.revealed).toEqual([]);
    const result = run.status!.results![':original']![0]!;
    const saved = await core.handlers['results:download']({ runId: run.runId, url: result.ssl_url!, name: 'mine.txt' });
    if (!saved.ok) throw new Error(saved.error.message);
    expect(await codeOf('shell:openPath', { path: saved.value.path })).toBe('ok');
    expect(await codeOf('shell:revealPath', { path: saved.value.path })).toBe('ok');
    expect(desktop.opened).toEqual([saved.value.path]);
  });

  it('shell:openUrl opens https and the embedded service only; no file:, javascript:, credentials or other http', async () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'https://user:pw@example.com/', 'http://example.com/', 'http://127.0.0.1:1/', 'smb://host/share']) {
      const code = await codeOf('shell:openUrl', { url });
      expect(['URL_NOT_ALLOWED', 'INVALID_IPC_REQUEST'], url).toContain(code);
    }
    expect(await codeOf('shell:openUrl', { url: 'file:///etc/passwd' })).toBe('URL_NOT_ALLOWED');
    expect(await codeOf('shell:openUrl', { url: 'https://user:pw@example.com/' })).toBe('URL_NOT_ALLOWED');
    expect(desktop.external).toEqual([]);
    expect(await codeOf('shell:openUrl', { url: 'https://transloadit.com/docs' })).toBe('ok');
    const cdn = `${core.localServiceUrl}/local/template/input.jpg`;
    expect(await codeOf('shell:openUrl', { url: cdn })).toBe('ok');
    expect(desktop.external).toEqual(['https://transloadit.com/docs', cdn]);
  });
});
