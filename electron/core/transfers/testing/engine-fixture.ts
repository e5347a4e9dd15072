import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LocalService } from '../../../../service/index';
import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import type { TransferSettings } from '../../../../shared/ipc/transfer-models';
import { ok } from '../../../../shared/result';
import { createApiClient, type ApiClient } from '../../api/api-client';
import { createCoreEvents, type CoreEvents } from '../../events';
import { createRunManager, type RunManager } from '../../runs/run-manager';
import { openRunStore } from '../../runs/run-store';
import type { DraftFile } from '../draft-feed';
import { createTransferEngine, type TransferEngine, type TransferEngineDeps } from '../transfer-engine';

/** A transfer engine wired as createCore wires it (run manager, store, events), against a running service. */
export interface EngineHarness {
  engine: TransferEngine;
  runs: RunManager;
  events: CoreEvents;
  api: ApiClient;
  close(): Promise<void>;
}

/** `client`: the workspace's own client (a deployment behind TLS with its CA file) instead of one made for `service`. */
export async function openEngine(service: Pick<LocalService, 'url' | 'authKey' | 'authSecret'>, dataDir: string, settings: Partial<TransferSettings> = {}, tus: NonNullable<TransferEngineDeps['tus']> = {}, client?: ApiClient): Promise<EngineHarness> {
  const api = client ?? createApiClient({ endpoint: service.url, authKey: service.authKey, getSecret: async () => service.authSecret });
  const events = createCoreEvents();
  const clientFor = () => ok({ workspaceId: 'local', api });
  const runs = createRunManager({ events, clientFor, store: openRunStore(dataDir), pollIntervalMs: 500 });
  const engine = createTransferEngine({ dataDir, events, clientFor, runs, tus, reportError: (code, message) => console.error(code, message) });
  await runs.restore();
  await engine.restore();
  if (Object.keys(settings).length > 0) engine.saveSettings(settings);
  return {
    engine,
    runs,
    events,
    api,
    async close() {
      await engine.close();
      await runs.close();
    },
  };
}

export interface MadeFile extends DraftFile {
  md5: string;
}

/** Files of random bytes under `root`, named by `relativePaths` with the given sizes. */
export async function makeFiles(root: string, specs: ReadonlyArray<{ relativePath: string; size: number }>): Promise<MadeFile[]> {
  const out: MadeFile[] = [];
  for (const spec of specs) {
    const file = path.join(root, spec.relativePath);
    await mkdir(path.dirname(file), { recursive: true });
    const bytes = randomBytes(spec.size);
    await writeFile(file, bytes);
    out.push({
      path: file,
      relativePath: spec.relativePath,
      name: path.basename(file),
      size: spec.size,
      mime: null,
      mtimeMs: Date.now(),
      md5: createHash('md5').update(bytes).digest('hex'),
    });
  }
  return out;
}

/** The final statuses of every Assembly of a transfer, fetched from the service. */
export async function assembliesOf(h: EngineHarness, transferId: string): Promise<AssemblyStatus[]> {
  const out: AssemblyStatus[] = [];
  for (const b of h.engine.batchesOf(transferId)) {
    if (!b.assemblyId) continue;
    const s = await h.api.getAssembly(`${h.api.endpoint}/assemblies/${b.assemblyId}`);
    if (s.ok) out.push(s.value);
  }
  return out;
}

/** Polls until `check` holds (or throws after `ms`). */
export async function until(check: () => boolean, ms = 15_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
