// The app's core in a process of its own, for the crash suite: builds createCore on a data dir, starts one
// run over the files it is given, and reports on stdout (one JSON object a line) so the test can kill it
// with SIGKILL at a chosen point. Run as `node --import tsx electron/core/crash/core-child.ts <config.json>`.
import { readFile } from 'node:fs/promises';
import type { Instructions } from '../../../shared/api/instructions';
import type { LocalFile, RunProgress } from '../../../shared/ipc/models';
import { createCore } from '../create-core';
import { coreCrashPorts, type CoreChildConfig } from './core-crash-ports';

async function main(): Promise<void> {
  const config = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as CoreChildConfig;
  const core = await createCore(coreCrashPorts(config));
  if (config.remote) {
    await core.vault.acceptUnprotected();
    await core.vault.set(config.remote.workspaceId, config.remote.authSecret);
  }
  const say = (o: Record<string, unknown>): void => void process.stdout.write(`${JSON.stringify(o)}\n`);
  core.onEvent((name, payload) => {
    if (name === 'run:progress') say({ bytes: (payload as RunProgress).totals.bytesUploaded });
  });
  const started = await core.transfers.startRun({ files: config.files as LocalFile[], instructions: { steps: config.steps as Instructions['steps'] } });
  if (!started.ok) {
    say({ error: started.error });
    process.exit(1);
  }
  say({ runId: started.value.runId, assemblyId: started.value.assemblyId });
  const final = await core.runs.settled(started.value.runId);
  say({ settled: final.ok ? final.value.state : final.error.code });
}

main().catch((e: Error) => {
  process.stdout.write(`${JSON.stringify({ error: e.message })}\n`);
  process.exit(1);
});
