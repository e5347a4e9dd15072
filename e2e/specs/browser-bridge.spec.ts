import { expect, test } from '../fixtures/app';

interface PageResult {
  ok: boolean;
  value?: { host?: string };
  error?: { code: string; message: string };
}

test('the page bridge carries requests to core, cannot be replaced, and answers HOST_DISCONNECTED once the host is gone', async ({ running, ui }) => {
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

  // The host stops (the user quit it): requests answer at once with an error the UI can show, instead of hanging.
  await running.app.host.close();
  const afterClose = await call();
  expect(afterClose.ok).toBe(false);
  expect(afterClose.error?.code).toBe('HOST_DISCONNECTED');
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

// A picked file that became unreadable: see folder-pick.spec.ts (it is skipped with its reason, the rest of the drop goes on).
