// One round of the service crash test: a batch of tus uploads (tus-js-client, streaming from disk) into
// several Assemblies, the service killed with SIGKILL at a chosen moment, restarted on the same data dir,
// then every promise checked:
// - every Assembly reaches a clear end state (completed, or failed with a code such as ASSEMBLY_CRASHED);
// - every file of a completed Assembly is in it exactly once, byte for byte (md5), and hashed exactly once;
// - every byte the service acknowledged before the kill is still there and intact (HEAD offset, file on
//   disk); unfinished uploads are resumed after the restart (a service that takes its waiting Assemblies
//   up again completes them; one that ends them as ASSEMBLY_CRASHED refuses), and the files of an
//   Assembly that did not complete go through in a new Assembly.
// Used by crash-service.test.ts (a few rounds) and bench/crash-loop.ts (many).
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Upload } from 'tus-js-client';
import { signParams } from '../auth/signature';
import { startServiceProcess, type ServiceProcess } from './service-process';

export interface CrashRoundOptions {
  /** A fresh folder for this round (data dir and input files go inside). */
  dir: string;
  assemblies: number;
  filesPerAssembly: number;
  /** When to kill the service, after the batch started. */
  killAfterMs: number;
  maxFileBytes?: number;
}

export interface CrashRoundResult {
  killAfterMs: number;
  assemblies: number;
  files: number;
  /** Files whose upload the client saw finish before the kill. */
  acknowledgedFiles: number;
  completedAssemblies: number;
  crashedAssemblies: number;
  resubmittedFiles: number;
  /** Broken promises; empty when the round held. */
  problems: string[];
}

interface InputFile {
  path: string;
  name: string;
  size: number;
  md5: string;
  sha256: string;
  bytes: Buffer;
}

interface Tracked {
  file: InputFile;
  assemblyId: string;
  uploadPath: string | null;
  acknowledged: number;
  finished: boolean;
}

const STEPS = { ':original': { robot: '/upload/handle' }, hashed: { use: ':original', robot: '/file/hash', algorithm: 'sha256' } };
const END_DEADLINE_MS = 30_000;

const isBusy = (s: Record<string, unknown>): boolean => !s.error && (s.ok === 'ASSEMBLY_UPLOADING' || s.ok === 'ASSEMBLY_EXECUTING');

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function createAssembly(base: string, key: string, secret: string, expected: number): Promise<string> {
  const params = JSON.stringify({ auth: { key, expires: new Date(Date.now() + 3600_000).toISOString() }, steps: STEPS });
  const form = new FormData();
  form.set('params', params);
  form.set('signature', signParams(params, secret));
  form.set('num_expected_upload_files', String(expected));
  const res = await fetch(`${base}/assemblies`, { method: 'POST', body: form });
  const body = (await res.json()) as { assembly_id?: string; error?: string };
  if (!body.assembly_id) throw new Error(`could not create an Assembly: ${JSON.stringify(body)}`);
  return body.assembly_id;
}

async function waitForEnd(base: string, id: string): Promise<Record<string, unknown>> {
  const until = Date.now() + END_DEADLINE_MS;
  for (;;) {
    const { body } = await getJson(`${base}/assemblies/${id}`);
    if (!isBusy(body) || Date.now() > until) return body;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts (or, given the upload's URL, resumes) one tus upload; resolves when it succeeds or fails. */
function startUpload(base: string, t: Tracked, resume = false): Promise<void> {
  return new Promise((resolve) => {
    const upload = new Upload(t.file.bytes, {
      endpoint: `${base}/resumable/files/`,
      ...(resume && t.uploadPath ? { uploadUrl: `${base}${t.uploadPath}` } : {}),
      chunkSize: 64 * 1024,
      retryDelays: [],
      metadata: { assembly_url: `${base}/assemblies/${t.assemblyId}`, fieldname: 'file', filename: t.file.name },
      onUploadUrlAvailable: () => {
        t.uploadPath = new URL(upload.url!).pathname;
      },
      onChunkComplete: (_size, accepted) => {
        t.acknowledged = Math.max(t.acknowledged, accepted);
      },
      onSuccess: () => {
        t.acknowledged = t.file.size;
        t.finished = true;
        resolve();
      },
      onError: () => resolve(),
    });
    upload.start();
  });
}

/** The bytes stored for a tus upload must be a prefix of the file sent, at least `acknowledged` long. */
async function checkStoredPrefix(dataDir: string, base: string, t: Tracked): Promise<string | null> {
  if (!t.uploadPath) return t.acknowledged > 0 ? `${t.file.name}: ${t.acknowledged} bytes acknowledged but no upload URL` : null;
  const head = await fetch(`${base}${t.uploadPath}`, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
  const offset = Number(head.headers.get('upload-offset'));
  if (head.status !== 200 || !Number.isFinite(offset)) return `${t.file.name}: HEAD ${t.uploadPath} gave ${head.status} after the restart (acknowledged ${t.acknowledged})`;
  if (offset < t.acknowledged) return `${t.file.name}: the service has ${offset} bytes but had acknowledged ${t.acknowledged}`;
  const stored = join(dataDir, 'tus', t.uploadPath.split('/').pop()!);
  const fh = await open(stored, 'r');
  try {
    const buf = Buffer.alloc(offset);
    await fh.read(buf, 0, offset, 0);
    if (!buf.equals(t.file.bytes.subarray(0, offset))) return `${t.file.name}: the ${offset} stored bytes differ from the file sent`;
  } finally {
    await fh.close();
  }
  return null;
}

/** Each file of a completed Assembly is there once, intact (md5), with exactly one hash result, correct. */
function checkCompleted(status: Record<string, unknown>, files: InputFile[]): string[] {
  const problems: string[] = [];
  const uploads = (status.uploads ?? []) as { name: string; md5hash: string; id: string }[];
  const hashed = ((status.results as Record<string, unknown[]> | undefined)?.hashed ?? []) as { original_id: string; meta: { hash?: string } }[];
  for (const f of files) {
    const mine = uploads.filter((u) => u.name === f.name);
    if (mine.length !== 1) {
      problems.push(`${String(status.assembly_id)}: ${f.name} is in uploads ${mine.length} times`);
      continue;
    }
    if (mine[0]!.md5hash !== f.md5) problems.push(`${f.name}: stored md5 ${mine[0]!.md5hash} differs from the file's ${f.md5}`);
    const results = hashed.filter((h) => h.original_id === mine[0]!.id);
    if (results.length !== 1) problems.push(`${f.name}: processed ${results.length} times (hash results)`);
    else if (results[0]!.meta.hash !== f.sha256) problems.push(`${f.name}: hash result ${String(results[0]!.meta.hash)} is not the file's sha256`);
  }
  if (uploads.length !== files.length) problems.push(`${String(status.assembly_id)}: ${uploads.length} uploads for ${files.length} files`);
  return problems;
}

export async function crashRound(o: CrashRoundOptions): Promise<CrashRoundResult> {
  const dataDir = join(o.dir, 'data');
  const inputDir = join(o.dir, 'in');
  await mkdir(inputDir, { recursive: true });
  const authKey = randomBytes(16).toString('hex');
  const authSecret = randomBytes(20).toString('hex');
  const problems: string[] = [];

  const files: InputFile[] = [];
  for (let i = 0; i < o.assemblies * o.filesPerAssembly; i++) {
    const bytes = randomBytes(randomInt(1, o.maxFileBytes ?? 1_500_000));
    const path = join(inputDir, `file-${i}.bin`);
    await writeFile(path, bytes);
    files.push({ path, name: `file-${i}.bin`, size: bytes.length, bytes, md5: createHash('md5').update(bytes).digest('hex'), sha256: createHash('sha256').update(bytes).digest('hex') });
  }

  let service: ServiceProcess = await startServiceProcess({ dataDir, authKey, authSecret });
  const tracked: Tracked[] = [];
  const assemblyFiles = new Map<string, InputFile[]>();
  try {
    for (let a = 0; a < o.assemblies; a++) {
      const mine = files.slice(a * o.filesPerAssembly, (a + 1) * o.filesPerAssembly);
      const id = await createAssembly(service.url, authKey, authSecret, mine.length);
      assemblyFiles.set(id, mine);
      for (const file of mine) tracked.push({ file, assemblyId: id, uploadPath: null, acknowledged: 0, finished: false });
    }
    const batch = Promise.all(tracked.map((t) => startUpload(service.url, t)));
    await new Promise((r) => setTimeout(r, o.killAfterMs));
    await service.kill();
    await batch;
    const acknowledgedFiles = tracked.filter((t) => t.finished).length;

    service = await startServiceProcess({ dataDir, authKey, authSecret });
    const base = service.url;
    for (const t of tracked) {
      const p = await checkStoredPrefix(dataDir, base, t);
      if (p) problems.push(p);
    }
    // The client side of a restart: resume what did not finish, from the offset the service has.
    await Promise.all(tracked.filter((t) => !t.finished).map((t) => startUpload(base, t, true)));
    let completed = 0;
    let crashed = 0;
    const resubmit: InputFile[] = [];
    const ends = await Promise.all([...assemblyFiles.keys()].map((id) => waitForEnd(base, id)));
    for (const [i, [id, mine]] of [...assemblyFiles].entries()) {
      const status = ends[i]!;
      if (isBusy(status)) {
        problems.push(`${id} is still ${String(status.ok)} ${END_DEADLINE_MS} ms after the restart and the resumed uploads`);
        continue;
      }
      if (status.ok === 'ASSEMBLY_COMPLETED' && !status.error) {
        completed++;
        problems.push(...checkCompleted(status, mine));
      } else if (typeof status.error === 'string' && /^[A-Z_]+$/.test(status.error)) {
        crashed++;
        resubmit.push(...mine);
        // An Assembly that did not complete must not look processed: no results.
        const results = Object.values((status.results ?? {}) as Record<string, unknown[]>).flat();
        if (results.length > 0 && status.error !== 'ASSEMBLY_CRASHED') problems.push(`${id} failed (${status.error}) but lists ${results.length} results`);
      } else {
        problems.push(`${id} ended in an unclear state: ok=${String(status.ok)} error=${String(status.error)}`);
      }
    }
    // Nothing lost: what did not complete goes through, once, in a new Assembly on the restarted service.
    if (resubmit.length > 0) {
      const id = await createAssembly(base, authKey, authSecret, resubmit.length);
      const again = resubmit.map((file) => ({ file, assemblyId: id, uploadPath: null, acknowledged: 0, finished: false }));
      await Promise.all(again.map((t) => startUpload(base, t)));
      const unfinished = again.filter((t) => !t.finished).map((t) => t.file.name);
      if (unfinished.length) problems.push(`resubmitting failed for ${unfinished.join(', ')}`);
      const status = await waitForEnd(base, id);
      if (status.ok !== 'ASSEMBLY_COMPLETED' || status.error) problems.push(`the resubmitted Assembly ended ${String(status.error ?? status.ok)}: ${String(status.message)}`);
      else problems.push(...checkCompleted(status, resubmit));
    }
    // The database survived the kill: its integrity check passes (read while the service runs).
    const header = (await readFile(join(dataDir, 'service.sqlite'))).subarray(0, 16).toString('latin1');
    if (header !== 'SQLite format 3\0') problems.push('service.sqlite lost its SQLite header');
    return { killAfterMs: o.killAfterMs, assemblies: o.assemblies, files: files.length, acknowledgedFiles, completedAssemblies: completed, crashedAssemblies: crashed, resubmittedFiles: resubmit.length, problems };
  } finally {
    await service.stop();
  }
}
