import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { startFaultProxy } from '../../../service/testing/fault-proxy';
import { abortedUpload } from '../../../service/testing/service-fixture';
import { createApiClient, type ApiClient } from '../api/api-client';
import { createBatchAssembly, idsUnsupportedBy, MAX_ID_STEPS, stillArriving, type CreateBatchJob, type CreateBatchOutcome } from './batch-creator';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { makeFiles, type MadeFile } from './testing/engine-fixture';
import { assemblyIdOf, markerOf, MARKER_FIELD, newFileRec, type FileRec } from './transfer-model';

// The batch creator against the real local service: each batch generation is created at most once, under
// ids derived from the batch (POST /assemblies/{id}), whatever order a lost request and its retry arrive in.
const steps = { ':original': { robot: '/upload/handle' } };
let dir = '';
let service: LocalService;
let api: ApiClient;
let n = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-batch-creator-'));
  service = await startLocalService({ dataDir: path.join(dir, 'service'), port: 0 });
  api = clientOf(service.url);
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

function clientOf(endpoint: string): ApiClient {
  return createApiClient({ endpoint, authKey: service.authKey, getSecret: async () => service.authSecret });
}

/** A file of the batch, as the queue hands it to the creator: its create request is on its way. */
const rec = (f: MadeFile, i: number): FileRec => ({ ...newFileRec(`t:${String(i)}`, 't', 't:b0', f), state: 'uploading', method: 'multipart' });

/** A fresh batch of three small files, and the job that creates its Assembly. */
async function batchJob(over: Partial<CreateBatchJob> = {}): Promise<{ job: CreateBatchJob; files: MadeFile[] }> {
  const root = await mkdtemp(path.join(dir, 'in-'));
  const files = await makeFiles(root, [0, 1, 2].map((i) => ({ relativePath: `f/${i}.bin`, size: 1_000 + i })));
  const batchId = `batch-${String(n++)}-${path.basename(root)}:b0`;
  const job: CreateBatchJob = {
    api,
    instructions: { steps },
    batchId,
    generation: 0,
    idAttempt: 0,
    useIds: true,
    marker: markerOf(batchId, 0),
    multipart: files.map(rec),
    tus: [],
    lookFirst: false,
    ledger: () => null,
    bucket: null,
    onFileBytes: () => undefined,
    ...over,
  };
  return { job, files };
}

const idOf = (job: CreateBatchJob, attempt: number) => assemblyIdOf(job.batchId, job.generation, attempt);

/** Assemblies carrying the batch's marker that are not REQUEST_ABORTED (what a user is billed for). */
async function withMarker(marker: string): Promise<string[]> {
  const listed = await api.request('GET', '/assemblies', { keywords: [marker], type: 'all', pagesize: 50 });
  if (!listed.ok) throw new Error(listed.error.message);
  const ids = (listed.value.items as Array<{ id: string }>).map((i) => i.id);
  const out: string[] = [];
  for (const id of ids) {
    const s = await api.getAssembly(`${api.endpoint}/assemblies/${id}`);
    if (s.ok && s.value.ok !== 'REQUEST_ABORTED') out.push(id);
  }
  return out;
}

function expectCreated(outcome: CreateBatchOutcome, files: MadeFile[]): Extract<CreateBatchOutcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  // Every file arrived once, with the md5 we computed while reading it.
  expect(outcome.delivered.map((d) => [d.md5, d.serviceMd5])).toEqual(files.map((f) => [f.md5, f.md5]));
  return outcome;
}

/** Sends the batch's files as its create request would, to `/assemblies/<id>`, without the last bytes until `finish`. */
function heldCopy(job: CreateBatchJob, id: string): { finish(): Promise<number> } {
  const boundary = 'xxHELDxx';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n` +
    JSON.stringify({ auth: { key: service.authKey }, steps }) +
    `\r\n--${boundary}\r\nContent-Disposition: form-data; name="${MARKER_FIELD}"\r\n\r\n${job.marker}` +
    `\r\n--${boundary}\r\nContent-Disposition: form-data; name="tus_num_expected_upload_files"\r\n\r\n0`;
  const tail = `\r\n--${boundary}--\r\n`;
  const req = request(`${service.url}/assemblies/${id}`, { method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } });
  const answered = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  req.write(head);
  return {
    finish: () => {
      req.end(tail);
      return answered;
    },
  };
}

describe('createBatchAssembly with client-chosen ids', () => {
  it('creates the batch under its first derived id', async () => {
    const { job, files } = await batchJob();
    const outcome = expectCreated(await createBatchAssembly(job), files);
    expect(outcome.status.assembly_id).toBe(idOf(job, 0));
    expect(outcome.idAttempt).toBe(0);
    expect(await withMarker(job.marker)).toEqual([idOf(job, 0)]);
  });

  it('adopts the Assembly a copy of its request made first, instead of creating the batch again', async () => {
    const { job, files } = await batchJob();
    // The request whose answer was lost reached the service before the retry.
    const parts = await Promise.all(files.map(async (f, i) => ({ field: `file_${String(i)}`, name: f.name, data: new Blob([new Uint8Array(await readFile(f.path))]) })));
    const copy = await api.createAssembly({ instructions: { steps }, expectedUploads: 0, assemblyId: idOf(job, 0), fields: { [MARKER_FIELD]: job.marker }, files: parts });
    expect(copy.ok).toBe(true);
    const outcome = expectCreated(await createBatchAssembly(job), files); // not even told to look first: the service refuses the id
    expect(outcome.status.assembly_id).toBe(idOf(job, 0));
    expect(await withMarker(job.marker)).toEqual([idOf(job, 0)]);
  });

  it('after a lost answer, skips an id spent by a cut request (REQUEST_ABORTED) and creates under the next one', async () => {
    const { job, files } = await batchJob({ lookFirst: true });
    expect((await abortedUpload(service.url, idOf(job, 0), service.authKey)).ok).toBe('REQUEST_ABORTED');
    const outcome = expectCreated(await createBatchAssembly(job), files);
    expect(outcome.status.assembly_id).toBe(idOf(job, 1));
    expect(outcome.idAttempt).toBe(1);
    expect(await withMarker(job.marker)).toEqual([idOf(job, 1)]);
  });

  it('while a copy of its request is still being received, waits (transient) and then adopts that copy', async () => {
    const { job } = await batchJob();
    const held = heldCopy(job, idOf(job, 0));
    await new Promise((r) => setTimeout(r, 100));
    const first = await createBatchAssembly(job);
    expect(first.ok || [first.error.code, first.failure, first.ambiguous]).toEqual(['DO_NOT_REUSE_ASSEMBLY_IDS', 'transient', true]);
    expect(await held.finish()).toBe(200);
    const again = await createBatchAssembly({ ...job, lookFirst: true, idAttempt: first.idAttempt });
    if (!again.ok) throw new Error(again.error.message);
    expect(again.status.assembly_id).toBe(idOf(job, 0));
    expect(await withMarker(job.marker)).toEqual([idOf(job, 0)]);
  });

  it('walks a bounded number of spent ids per call, and goes on from there on the next call', async () => {
    const { job, files } = await batchJob({ lookFirst: true });
    for (let a = 0; a <= MAX_ID_STEPS; a++) await abortedUpload(service.url, idOf(job, a), service.authKey);
    const first = await createBatchAssembly(job);
    expect(first.ok || [first.error.code, first.failure, first.idAttempt]).toEqual(['ASSEMBLY_ID_UNSETTLED', 'transient', MAX_ID_STEPS]);
    const outcome = expectCreated(await createBatchAssembly({ ...job, idAttempt: first.idAttempt }), files);
    expect(outcome.status.assembly_id).toBe(idOf(job, MAX_ID_STEPS + 1));
  });

  it('where POST /assemblies/{id} does not exist (404 SERVER_404), creates without an id and says so', async () => {
    const proxy = await startFaultProxy({ target: service.url, rules: [{ action: { kind: 'status-404' }, match: (r) => r.method === 'POST' && /^\/assemblies\/[0-9a-f]{32}$/.test(r.url) }] });
    try {
      const { job, files } = await batchJob({ api: clientOf(proxy.url), lookFirst: true });
      const outcome = expectCreated(await createBatchAssembly(job), files);
      expect(outcome.idsUnsupported).toBe(true);
      expect(outcome.status.assembly_id).not.toBe(idOf(job, 0));
      expect(proxy.counts['status-404']).toBe(1);
      // The marker still finds it after a lost answer: the next call adopts it instead of creating another.
      const again = await createBatchAssembly({ ...job, useIds: false });
      expect(again.ok && again.status.assembly_id).toBe(outcome.status.assembly_id);
      expect(await withMarker(job.marker)).toEqual([outcome.status.assembly_id]);
    } finally {
      await proxy.close();
    }
  });

  it('does not adopt an Assembly whose create request is still arriving (uploading, parts missing), but one waiting only for tus', () => {
    const upload = (field: string, tus = false) => ({ field, name: `${field}.bin`, md5hash: 'x', is_tus_file: tus, ...(tus ? { tus_upload_url: `u/${field}` } : {}) });
    const uploading = (uploads: object[]) => ({ ok: 'ASSEMBLY_UPLOADING', uploads }) as unknown as AssemblyStatus;
    // The service lists the Assembly before it has recorded the request's files (they are still being read).
    expect(stillArriving(uploading([]), 3)).toBe(true);
    expect(stillArriving(uploading([upload('file_0'), upload('file_2')]), 3)).toBe(true);
    // All parts recorded; only tus uploads are awaited: this is the batch's Assembly.
    expect(stillArriving(uploading([upload('file_0'), upload('file_1'), upload('file_2'), upload('tus_0', true)]), 3)).toBe(false);
    expect(stillArriving(uploading([]), 0)).toBe(false);
    // Over (or failed): nothing more will arrive; adopting lets the queue judge what is missing.
    expect(stillArriving({ ok: 'ASSEMBLY_COMPLETED', uploads: [] } as unknown as AssemblyStatus, 3)).toBe(false);
    expect(stillArriving({ ok: 'ASSEMBLY_UPLOADING', error: 'INVALID_INPUT', uploads: [] } as unknown as AssemblyStatus, 3)).toBe(false);
  });

  it('takes only an unknown-route 404 as "no ids here"', () => {
    expect(idsUnsupportedBy({ code: 'SERVER_404', message: 'unknown method / url', httpCode: 404 })).toBe(true);
    expect(idsUnsupportedBy({ code: 'TEMPLATE_NOT_FOUND', message: 'gone', httpCode: 404 })).toBe(false);
    expect(idsUnsupportedBy({ code: 'SERVER_500', message: 'oops', httpCode: 500 })).toBe(false);
    expect(idsUnsupportedBy({ code: 'DO_NOT_REUSE_ASSEMBLY_IDS', message: 'used', httpCode: 400 })).toBe(false);
  });
});
