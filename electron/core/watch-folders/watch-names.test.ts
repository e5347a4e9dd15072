// Issue 24 for watch folders (disk → result): files with names nobody chose, dropped into a watched folder,
// are each processed once and marked done only when verified in their Assembly, and their results come
// back to the output folder with their bytes; a file the service leaves out of its Assembly is never done.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileName } from '../../../service/testing/file-names';
import { createCore, type Core } from '../create-core';
import { callCore, testCorePorts } from '../testing/test-core';
import { safeSegment } from '../results-mirror/mirror-paths';
import { until } from '../transfers/testing/engine-fixture';
import { createUnavailableSecretStore } from '../vault/unavailable-secret-store';
import { isIgnoredRelativePath } from './watch-paths';

/** The embedded service's test-only fault (service/files/test-faults.ts): uploads of this name are left out of their Assembly. */
const DROP_FAULT_ENV = 'ASSEMBLYLINE_TEST_FAULT_DROP';
const NEVER_THERE = 'left out (1).txt';

let dir = '';
let core: Core;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-watch-names-'));
  // The embedded service is forked with this environment (Vitest's NODE_ENV=test lets it act).
  process.env[DROP_FAULT_ENV] = NEVER_THERE;
  try {
    core = await createCore(
      testCorePorts(dir, {
        secretStore: createUnavailableSecretStore('tests'),
        version: '9.9.9',
      }),
    );
  } finally {
    delete process.env[DROP_FAULT_ENV];
  }
}, 60_000);

afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

const call = <T>(channel: string, request: unknown): Promise<T> => callCore<T>(core, channel, request);

interface Item {
  relativePath: string;
  state: string;
  results: string[];
  error?: string | null;
}
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
/** Names a watch takes in: hidden files, OS litter and temp files are passed over by design. */
const watchedName = fileName.filter((n) => !isIgnoredRelativePath(n));

describe('watch folders with names nobody chose', () => {
  it('processes each file once, done only when verified, its result on disk with its bytes; a file left out of its Assembly is failed, never done', async () => {
    const inbox = path.join(dir, 'inbox');
    const out = path.join(dir, 'out');
    await mkdir(inbox, { recursive: true });
    const watch = await call<{ id: string }>('watch-folders:add', { folder: { path: inbox }, output: { path: out }, recipe: { kind: 'preset', presetId: 'store-originals' }, settleMs: 300 });
    await until(() => core.watchFolders.list()[0]?.state === 'watching', 10_000, 'watching');
    const items = async () => (await call<{ items: Item[] }>('watch-folders:items', { id: watch.id, offset: 0, limit: 1_000 })).items;

    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(watchedName, { minLength: 1, maxLength: 6, selector: (n) => n }), async (names) => {
        const sub = `run-${run++}`;
        await mkdir(path.join(inbox, sub));
        const written = new Map<string, string>();
        for (const name of names) {
          const bytes = randomBytes(1 + (name.length % 5_000));
          await writeFile(path.join(inbox, sub, name), bytes);
          written.set(`${sub}/${name}`, md5(bytes));
        }
        const mine = async () => (await items()).filter((i) => i.relativePath.startsWith(`${sub}/`));
        let seen: Item[] = [];
        const end = Date.now() + 120_000;
        while ((seen = await mine()).filter((i) => i.state === 'done' || i.state === 'failed').length < names.length) {
          if (Date.now() > end) throw new Error(`watch did not finish: ${JSON.stringify(seen)}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(seen.map((i) => i.relativePath).sort()).toEqual([...written.keys()].sort());
        for (const item of seen) {
          expect([item.relativePath, item.state, item.error ?? null]).toEqual([item.relativePath, 'done', null]);
          expect(item.results).toHaveLength(1);
          expect(md5(await readFile(path.join(out, ...item.results[0]!.split('/'))))).toBe(written.get(item.relativePath));
          const name = item.relativePath.slice(sub.length + 1);
          // Where the name is safe on every OS, the result keeps it (its extension as the service spells it).
          if (safeSegment(name) === name) expect(item.results[0]!.toLowerCase()).toBe(`original/${item.relativePath}`.toLowerCase());
        }
      }),
      { numRuns: Number(process.env.ASSEMBLYLINE_FUZZ_RUNS ?? 4), endOnFailure: true },
    );

    // The service completes its Assembly without this one: sent again, then failed with the reason; no result.
    await writeFile(path.join(inbox, NEVER_THERE), 'never arrives');
    const end = Date.now() + 120_000;
    let item: Item | undefined;
    while ((item = (await items()).find((i) => i.relativePath === NEVER_THERE))?.state !== 'failed') {
      expect(item?.state).not.toBe('done');
      if (Date.now() > end) throw new Error(`still ${item?.state}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(item?.error).toMatch(/^Missing from its Assembly \([0-9a-f]{32}\): the service completed it without this file\. Sent 4 times; not sent again\.$/);
    expect(item?.results).toEqual([]);
    await call('watch-folders:remove', { id: watch.id });
  }, 600_000);
});
