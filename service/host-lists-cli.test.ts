// `npm run service` with a host allow-list that could never match: the start is refused (exit 1, nothing
// listens) with the flag or variable, the entry and why — instead of every notification or tool server being
// refused later without a reason.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './testing/service-fixture';
import { runCliToExit } from './testing/run-cli';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('--notify-allow-hosts and --tool-server-allow-hosts', () => {
  it('refuse to start with a bad entry, from the flag or from the variable', async () => {
    const dir = await tempDir('svc-hosts-');
    dirs.push(dir);
    const args = ['--port', '0', '--data-dir', join(dir, 'data')];
    const [notifyFlag, notifyEnv, toolsFlag, toolsEnv] = await Promise.all([
      runCliToExit([...args, '--notify-allow-hosts', 'loopback,https://hooks.example.com/x']),
      runCliToExit(args, { ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS: '*.*, exa mple.com' }),
      runCliToExit([...args, '--tool-server-allow-hosts', 'loopback,tools.example.com:8080']),
      runCliToExit(args, { ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS: ' , ' }),
    ]);
    for (const run of [notifyFlag, notifyEnv, toolsFlag, toolsEnv]) {
      expect(run.code).toBe(1);
      expect(run.stdout).not.toContain('listening on');
    }
    expect(notifyFlag.stderr).toContain('service: --notify-allow-hosts has a bad entry: "https://hooks.example.com/x" is a URL, not a host: use hooks.example.com');
    expect(notifyEnv.stderr).toContain(
      'service: ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS has bad entries: "*.*" may hold "*" only as a whole label at the start, as in *.example.com; "exa mple.com" has a space inside',
    );
    expect(toolsFlag.stderr).toContain('service: --tool-server-allow-hosts has a bad entry: "tools.example.com:8080" has a port: use tools.example.com (any port is allowed)');
    expect(toolsEnv.stderr).toContain('service: ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS lists no host');
  }, 45_000);
});
