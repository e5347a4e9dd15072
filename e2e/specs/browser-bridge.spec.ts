import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '../fixtures/app';

/** The little of the DOM the probe uses (e2e code is typed without DOM types). */
interface ProbeDocument {
  createElement(tag: 'input'): { type: string; id: string };
  getElementById(id: string): { files: { size: number }[] };
  body: { append(node: unknown): void };
}

interface PageResult {
  ok: boolean;
  value?: { host?: string };
  error?: { code: string; message: string };
}

test('the page bridge carries requests to core, cannot be replaced, and answers NETWORK_ERROR once the host is gone', async ({ running, ui }) => {
  // The electron project ignores this spec (playwright.config.ts): it is about the browser host's WebSocket.
  if (running.kind !== 'browser-host') throw new Error('browser-bridge.spec.ts runs against the browser host only');
  const call = () =>
    ui.evaluate(() => {
      const bridge = (globalThis as unknown as { assemblyline: { invoke(c: string, r: object): Promise<unknown> } }).assemblyline;
      return bridge.invoke('app:info', {}) as Promise<PageResult>;
    });

  const info = await call();
  expect(info).toMatchObject({ ok: true, value: { host: 'browser' } });

  // A script in the page cannot swap the bridge for its own.
  const replaced = await ui.evaluate(() => {
    const g = globalThis as unknown as Record<string, unknown>;
    const before = g.assemblyline;
    try {
      g.assemblyline = { host: 'evil' };
    } catch {
      // Strict-mode code throws; sloppy code silently fails. Either way it must not change.
    }
    const bridge = g.assemblyline as Record<string, unknown>;
    try {
      bridge.invoke = () => 'hijacked';
    } catch {
      // Frozen.
    }
    return g.assemblyline === before && bridge.host === 'browser' && typeof bridge.invoke === 'function' && Object.isFrozen(bridge);
  });
  expect(replaced).toBe(true);

  // The host stops (the user quit it): requests answer with an error the UI can show, instead of hanging.
  await running.app.host.close();
  const afterClose = await call();
  expect(afterClose.ok).toBe(false);
  expect(afterClose.error?.code).toBe('NETWORK_ERROR');
});

test('a script in the page can name only what the user picked: raw paths, forged handles and foreign URLs are refused', async ({ running, ui }) => {
  if (running.kind !== 'browser-host') throw new Error('browser-bridge.spec.ts runs against the browser host only');
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
  const answers = await ui.evaluate(async () => {
    const bridge = (
      globalThis as unknown as {
        assemblyline: {
          invoke(c: string, r: object): Promise<PageResult>;
          handlesForFiles(items: { file: File; relativePath: string }[]): Promise<{ ok: boolean; value?: { handle: string }[] }>;
        };
      }
    ).assemblyline;
    const codeOf = async (channel: string, request: object) => {
      const answer = await bridge.invoke(channel, request);
      return answer.ok ? 'ok' : (answer.error?.code ?? 'none');
    };
    // Bytes the page itself holds can be staged: they become a handle, and that is all the page learns.
    const own = await bridge.handlesForFiles([{ file: new File(['mine'], 'mine.txt'), relativePath: 'mine.txt' }]);
    const handle = own.value?.[0]?.handle ?? '';
    const scan = (await bridge.invoke('files:scan', { handles: [handle] })) as PageResult & { value?: { files?: { relativePath: string; size: number }[] } };
    return {
      rawPath: await codeOf('files:scan', { paths: ['/etc/passwd'] }),
      pathAsHandle: await codeOf('files:scan', { handles: ['/etc/passwd'] }),
      escape: await codeOf('files:thumbnail', { handle, relativePath: 'mine.txt/../../../../../../etc/passwd' }),
      runRawPath: await codeOf('runs:start', { files: [{ path: '/etc/passwd', relativePath: 'passwd', name: 'passwd', size: 1, mime: null }], instructions: { steps: { ':original': { robot: '/upload/handle' } } } }),
      openPath: await codeOf('shell:openPath', { path: '/etc/passwd' }),
      reveal: await codeOf('shell:revealPath', { path: '/etc' }),
      openFileUrl: await codeOf('shell:openUrl', { url: 'file:///etc/passwd' }),
      openCredentials: await codeOf('shell:openUrl', { url: 'https://user:pw@example.com/' }),
      handle,
      scanned: scan.value?.files?.map((f) => [f.relativePath, f.size]),
      leaked: JSON.stringify([own, scan]),
    };
  });
  expect(answers).toMatchObject({
    rawPath: 'INVALID_IPC_REQUEST',
    pathAsHandle: 'FILE_HANDLE_UNKNOWN',
    escape: 'PATH_OUTSIDE_PICK',
    runRawPath: 'INVALID_IPC_REQUEST',
    openPath: 'PATH_NOT_APP_WRITTEN',
    reveal: 'PATH_NOT_APP_WRITTEN',
    openFileUrl: 'URL_NOT_ALLOWED',
    openCredentials: 'URL_NOT_ALLOWED',
    handle: expect.stringMatching(/^fh_/),
    scanned: [['mine.txt', 4]],
  });
  expect(answers.leaked).not.toContain(running.app.core.stagingDir);
  expect(running.desktop.opened).toEqual([]);
  expect(running.desktop.revealed).toEqual([]);
  expect(running.desktop.external).toEqual([]);
});

test('a picked file that became unreadable gets FILE_UNREADABLE, and the host goes on', async ({ running, ui, workDir }) => {
  if (running.kind !== 'browser-host') throw new Error('browser-bridge.spec.ts runs against the browser host only');
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
  const file = path.join(workDir, 'gone.txt');
  await writeFile(file, 'about to vanish');
  // A file input of our own, so the File is backed by the real file on disk, as a user's pick is.
  await ui.evaluate(() => {
    const doc = (globalThis as unknown as { document: ProbeDocument }).document;
    const input = doc.createElement('input');
    input.type = 'file';
    input.id = 'probe-input';
    doc.body.append(input);
  });
  await ui.locator('#probe-input').setInputFiles(file);
  // The page has seen the file (its size, as when it lists a drop); then it vanishes before staging.
  expect(await ui.evaluate(() => (globalThis as unknown as { document: ProbeDocument }).document.getElementById('probe-input').files[0]?.size)).toBe(15);
  await rm(file);
  const answer = await ui.evaluate(async () => {
    const g = globalThis as unknown as {
      document: ProbeDocument;
      assemblyline: { handlesForFiles(items: object[]): Promise<PageResult>; invoke(c: string, r: object): Promise<PageResult> };
    };
    const picked = g.document.getElementById('probe-input').files[0];
    const staged = await g.assemblyline.handlesForFiles([{ file: picked, relativePath: 'gone.txt' }]);
    const after = await g.assemblyline.invoke('app:info', {});
    return { staged, alive: after.ok };
  });
  expect(answer.staged).toMatchObject({ ok: false, error: { code: 'FILE_UNREADABLE', message: expect.stringContaining('gone.txt') } });
  expect(answer.alive).toBe(true);
});
