import { createHash, randomBytes } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostedDeployment } from '../../../service/testing/hosted-deployment';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { isAssemblyBusy } from '../../../shared/api/codes';
import { matchInputs } from '../results-mirror/mirror-plan';
import { mirrorResults } from '../results-mirror/mirror-run';
import { startHostedWorkspace, type HostedWorkspace } from '../testing/hosted-workspace';
import { writeResultsForWatch } from '../watch-folders/watch-results';
import { createWorkspaceClient } from '../workspaces/workspace-client';
import { downloadResult, readStatusOf, RESULT_EXPIRED } from './result-download';

// Result URLs that expire, on a deployment like the hosted one (results on their own TLS host): a result
// host that answers 404/403 gets the Assembly's status read again and the fresh URL tried once; when that
// is refused too, or the record no longer lists the file, the user is told plainly it expired.
let hosted: HostedWorkspace;
let dir = '';
let d: HostedDeployment;
let done: AssemblyStatus;
const bytes = randomBytes(50_000);

const api = () => createWorkspaceClient(hosted.workspace, { getSecret: async () => d.service.authSecret, maxRetries: 2 }).api;

beforeAll(async () => {
  hosted = await startHostedWorkspace('hosted-results');
  ({ dir, d } = hosted);
  const client = api();
  const created = await client.createAssembly({
    instructions: { steps: { ':original': { robot: '/upload/handle' }, kept: { robot: '/file/filter', use: ':original', accepts: [['${file.size}', '>', 0]] } } },
    expectedUploads: 0,
    files: [{ field: 'file', name: 'clip.bin', data: new Blob([bytes]) }],
  });
  if (!created.ok) throw new Error(created.error.message);
  done = created.value;
  while (isAssemblyBusy(done)) {
    await new Promise((r) => setTimeout(r, 100));
    const next = await client.getAssembly(done.assembly_ssl_url!);
    if (next.ok) done = next.value;
  }
});
afterEach(() => d.clearFaults());
afterAll(async () => {
  await hosted?.close();
});

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

describe('result URLs that expire', () => {
  it('a result host that answers 404 once: the status is read again on the regional host and the fresh URL downloads the file', async () => {
    const client = api();
    const file = done.results!.kept![0]!;
    expect(new URL(file.ssl_url!).host).toBe(new URL(d.fronts.results.url).host);
    d.fault('results', { kind: 'status-404' }, { times: 1 });
    let reads = 0;
    const saved = await downloadResult({
      url: file.ssl_url!, file, dir: path.join(dir, 'once'), name: 'clip.bin', fetch: client.transport.fetch,
      readStatus: () => {
        reads++;
        return client.getAssembly(done.assembly_ssl_url!);
      },
    });
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(md5(await readFile(saved.value.path))).toBe(md5(bytes));
    expect(reads).toBe(1);
    expect(d.fronts.results.counts['status-404']).toBe(1);
  });

  it('still refused at the fresh URL, or gone from the record: RESULT_EXPIRED, said plainly, and no file left behind', async () => {
    const client = api();
    const file = done.results!.kept![0]!;
    d.fault('results', { kind: 'status-404' });
    const out = path.join(dir, 'expired');
    const refused = await downloadResult({ url: file.ssl_url!, file, dir: out, name: 'clip.bin', fetch: client.transport.fetch, readStatus: () => client.getAssembly(done.assembly_ssl_url!) });
    expect(refused.ok || refused.error).toMatchObject({ code: RESULT_EXPIRED, message: expect.stringMatching(/^clip\.bin has expired on the service: .*HTTP 404, also at the fresh URL.*replay the Assembly/) });
    const gone = await downloadResult({
      url: file.ssl_url!, file, dir: out, name: 'clip.bin', fetch: client.transport.fetch,
      readStatus: async () => ({ ok: true, value: { ...done, results: { kept: [] }, uploads: [] } }),
    });
    expect(gone.ok || gone.error).toMatchObject({ code: RESULT_EXPIRED, message: expect.stringMatching(/no longer lists it/) });
    expect(await readdir(out).catch(() => [])).toEqual([]);
  });

  it('"Save results to folder" and a watch folder: an expired URL is fetched again at the fresh one (one status read per Assembly), or each file says it expired', async () => {
    const client = api();
    const sources = [{ assemblyId: done.assembly_id!, status: done, inputs: matchInputs(null, done) }];
    const files = Object.values(done.results ?? {}).flat().length;
    let reads = 0;
    const readStatus = (s: AssemblyStatus) => {
      reads++;
      return readStatusOf(client)(s);
    };
    // Every file's first URL refused once (the record's URLs have expired), the fresh ones served.
    d.fault('results', { kind: 'status-404' }, { times: files });
    const saved = await mirrorResults(sources, { outputDir: path.join(dir, 'mirror'), layout: 'by-step', conflict: 'overwrite', fetch: client.transport.fetch, readStatus });
    expect(saved).toMatchObject({ written: files, failed: 0, errors: [] });
    expect(reads).toBe(1);
    expect(md5(await readFile(path.join(dir, 'mirror', 'kept', 'clip.bin')))).toBe(md5(bytes));

    // Refused at the fresh URLs too: each file fails RESULT_EXPIRED, named, and nothing is left behind.
    d.fault('results', { kind: 'status-404' });
    const refused = await mirrorResults(sources, { outputDir: path.join(dir, 'mirror-expired'), layout: 'by-step', conflict: 'overwrite', fetch: client.transport.fetch, readStatus });
    expect(refused).toMatchObject({ written: 0, failed: files });
    expect(refused.errors.map((e) => e.code)).toEqual(Array(files).fill(RESULT_EXPIRED));
    expect(refused.errors.find((e) => e.path === 'kept/clip.bin')?.message).toMatch(/^clip\.bin has expired on the service: .*also at the fresh URL.*replay the Assembly/);
    const left = await readdir(path.join(dir, 'mirror-expired'), { recursive: true }).catch(() => []);
    expect(left.filter((f) => !['kept', ':original'].includes(String(f)))).toEqual([]);
    d.clearFaults();

    // A watch folder writes one file's results the same way.
    d.fault('results', { kind: 'status-404' }, { times: files });
    const watched = await writeResultsForWatch({ status: done, relativePath: 'in/clip.bin', output: path.join(dir, 'watch-out'), conflict: 'overwrite', fetch: client.transport.fetch, readStatus: readStatusOf(client) });
    expect(watched.written).toContain('kept/in/clip.bin');
    d.clearFaults();
    d.fault('results', { kind: 'status-404' });
    await expect(writeResultsForWatch({ status: done, relativePath: 'in/clip.bin', output: path.join(dir, 'watch-expired'), conflict: 'overwrite', fetch: client.transport.fetch, readStatus: readStatusOf(client) })).rejects.toThrow(/^RESULT_EXPIRED: .*has expired on the service/);
  });
});
