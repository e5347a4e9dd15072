import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceStatus } from '../../../shared/ipc/service-models';
import { createForkServiceProcess, sourceServiceEntry } from './fork-service-process';
import { superviseLocalService } from './supervisor';

// The embedded service in its real child process, started with a host allow-list that could never match:
// it refuses to start, and the supervisor says why, like any other refused start (a busy port).
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-svc-hosts-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the embedded service with a bad host allow-list', () => {
  it('refuses to start, naming the list, the entry and why, in the first start and in the status', async () => {
    const statuses: ServiceStatus[] = [];
    const supervisor = superviseLocalService({
      process: createForkServiceProcess({ entry: sourceServiceEntry() }),
      dataDir: path.join(dir, 'notify'),
      notifications: { allowedHosts: ['loopback', 'https://hooks.example.com/x'] },
      chat: { toolServerHosts: ['tools.*.com'] },
      backoffBaseMs: 10_000,
      onStatus: (status) => statuses.push(status),
      log: () => undefined,
    });
    try {
      await expect(supervisor.firstStart).rejects.toThrow(
        'The notify allow-list (--notify-allow-hosts, ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS) has a bad entry: "https://hooks.example.com/x" is a URL, not a host: use hooks.example.com',
      );
      await expect.poll(() => statuses.find((s) => s.phase === 'restarting')?.message, { timeout: 20_000 }).toMatch(/could not start: The notify allow-list .*"https:\/\/hooks\.example\.com\/x" is a URL/);
    } finally {
      await supervisor.close();
    }
    const tools = superviseLocalService({
      process: createForkServiceProcess({ entry: sourceServiceEntry() }),
      dataDir: path.join(dir, 'tools'),
      chat: { toolServerHosts: ['loopback', 'tools.*.com'] },
      backoffBaseMs: 10_000,
      log: () => undefined,
    });
    try {
      await expect(tools.firstStart).rejects.toThrow(
        'The tool-server allow-list (--tool-server-allow-hosts, ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS, or the app\'s Chat model settings) has a bad entry: "tools.*.com" may hold "*" only as a whole label at the start',
      );
    } finally {
      await tools.close();
    }
  }, 60_000);
});
