// The queue's transitions without I/O: events in, commands and states out.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRANSFER_SETTINGS, type TransferSettings } from '../../../shared/ipc/transfer-models';
import type { SeenUpload } from './assembly-check';
import { assemblyIdOf, emptyState, MAX_RESENDS, type Command, type EngineEvent, type EngineState } from './transfer-model';
import { control } from './transfer-controls';
import { nextWake, pump, reduce, restored } from './transfer-state';

const T = 't1';
const KiB = 1024;

function queue(settings: Partial<TransferSettings> = {}, sizes: number[] = [10 * KiB, 10 * KiB, 50 * 1024 * KiB], mode: 'per-drop' | 'every-n' = 'per-drop', maxFiles = 1000): EngineState {
  const s = emptyState({ ...DEFAULT_TRANSFER_SETTINGS, ...settings });
  reduce(s, { kind: 'transfer-started', transfer: { id: T, workspaceId: 'w', createdAt: '', label: 'Drop', instructions: { steps: {} }, limits: { maxNumberOfFiles: null, maxSize: null }, batching: { mode, batchMaxFiles: maxFiles, batchMaxBytes: 1e15 }, multipartMaxFileBytes: null, runId: null } }, 0);
  reduce(s, { kind: 'files-added', transferId: T, files: sizes.map((size, i) => ({ path: `/in/${i}`, relativePath: `d/${i}.bin`, name: `${i}.bin`, size, mime: null, mtimeMs: 0 })) }, 0);
  return s;
}
const file = (s: EngineState, n: number) => s.files.get(`${T}:${n}`)!;
const batch = (s: EngineState, seq = 0) => s.batches.get(`${T}:b${seq}`)!;
const kinds = (commands: Command[]) => commands.map((c) => c.kind);
/** An upload record as the ended Assembly lists it: a tus upload by its URL's id, a multipart part by its field. */
const tusUp = (uploadId: string, size: number, md5: string | null): SeenUpload => ({ field: 'file', uploadId, size, md5 });
const partUp = (field: string, size: number, md5: string | null): SeenUpload => ({ field, uploadId: null, size, md5 });

/** Create batch 0's Assembly as the service would answer: multipart files delivered with matching md5. */
function created(s: EngineState, now = 0, extra: Partial<Extract<EngineEvent, { kind: 'batch-created' }>> = {}) {
  const create = pump(s, now).commands.find((c) => c.kind === 'create-batch') as Extract<Command, { kind: 'create-batch' }>;
  return {
    create,
    step: reduce(s, { kind: 'batch-created', batchId: create.batchId, generation: create.generation, assemblyId: 'a1', assemblyUrl: 'http://svc/assemblies/a1', tusUrl: 'http://svc/resumable/files/', runId: 'r1', excluded: [], tus: create.tus, delivered: create.multipart.map((id) => ({ fileId: id, md5: 'm', serviceMd5: 'm' })), terminal: false, error: null, uploads: null, ...extra }, now),
  };
}

/** A drop whose walk ended, its batch 0's Assembly created (`created`): the setup most tests share. */
function started(...args: Parameters<typeof queue>): EngineState {
  const s = queue(...args);
  reduce(s, { kind: 'scan-ended', transferId: T }, 0);
  created(s);
  return s;
}

/** Files `ns` of batch 0 sent whole by tus, each with its upload URL (u<n>) and the md5 the client computed. */
function sentByTus(s: EngineState, ns: number[], md5 = 'x'): void {
  pump(s, 0);
  for (const n of ns) {
    reduce(s, { kind: 'tus-url', fileId: `${T}:${n}`, url: `http://svc/resumable/files/u${n}` }, 0);
    reduce(s, { kind: 'file-uploaded', fileId: `${T}:${n}`, md5 }, 0);
  }
}

describe('batching and starting', () => {
  it('creates nothing until a batch is closed, then one create request carrying the small files, the big one for tus', () => {
    const s = queue();
    expect(pump(s, 0).commands).toEqual([]); // per-drop: open until the walk ends
    reduce(s, { kind: 'scan-ended', transferId: T }, 0);
    const { create } = created(s);
    expect(create).toMatchObject({ multipart: [`${T}:0`, `${T}:1`], tus: [`${T}:2`], lookFirst: false });
    // Delivered, not yet verified: that waits for the Assembly to complete.
    expect([file(s, 0).state, file(s, 0).method]).toEqual(['uploaded', 'multipart']);
    expect(batch(s).state).toBe('uploading');
    expect(kinds(pump(s, 0).commands)).toEqual(['upload-tus']);
    expect(file(s, 2).state).toBe('uploading');
  });

  it('closes every-n batches as they fill, so the first leaves while files still arrive', () => {
    const s = queue({}, [1, 1, 1, 1, 1], 'every-n', 2);
    expect([...s.batches.values()].map((b) => [b.label, b.sealed, b.fileIds.length])).toEqual([
      ['Files 1–2', true, 2],
      ['Files 3–4', true, 2],
      ['Files 5–…', false, 1],
    ]);
    expect(kinds(pump(s, 0).commands)).toEqual(['create-batch', 'create-batch']);
  });

  it('never runs more requests than allowed, and multipart:0 sends every file by tus', () => {
    const s = queue({ concurrency: 2, multipartMaxFileBytes: 0 }, [5, 5, 5, 5, 5]);
    reduce(s, { kind: 'scan-ended', transferId: T }, 0);
    const { create } = created(s);
    expect(create.multipart).toEqual([]);
    expect(kinds(pump(s, 0).commands)).toEqual(['upload-tus', 'upload-tus']);
    expect(pump(s, 0).commands).toEqual([]);
    reduce(s, { kind: 'file-uploaded', fileId: `${T}:0`, md5: 'x' }, 0);
    expect(kinds(pump(s, 0).commands)).toEqual(['upload-tus']);
  });
});

describe('pacing', () => {
  it('413 RATE_LIMIT_REACHED gates everything for retryIn, then goes on; the file is not counted as an attempt', () => {
    const s = started({ multipartMaxFileBytes: 0 }, [5, 5]);
    pump(s, 0);
    reduce(s, { kind: 'file-failed', fileId: `${T}:0`, error: '413', failure: 'rate-limit', retryInMs: 2_000 }, 100);
    expect(file(s, 0)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(s.gateUntil).toBe(2_100);
    expect(pump(s, 1_000).commands).toEqual([]);
    expect(nextWake(s, 1_000)).toBe(2_100);
    expect(kinds(pump(s, 2_100).commands)).toEqual(['upload-tus']);
    expect(s.gateUntil).toBeNull();
  });

  it('429 and network errors halve the requests allowed, back off the file, then probe back up one at a time', () => {
    const s = started({ concurrency: 8, multipartMaxFileBytes: 0 }, Array.from({ length: 30 }, () => 5));
    pump(s, 0);
    reduce(s, { kind: 'file-failed', fileId: `${T}:0`, error: 'HTTP 429', failure: 'transient' }, 0);
    expect(s.effective).toBe(4);
    expect(file(s, 0)).toMatchObject({ state: 'queued', attempts: 1, retryAt: 500 });
    reduce(s, { kind: 'file-failed', fileId: `${T}:1`, error: 'reset', failure: 'transient' }, 0);
    expect(s.effective).toBe(2);
    // Two successes in a row at 2 allowed → 3; then three more → 4.
    for (const n of [2, 3]) reduce(s, { kind: 'file-uploaded', fileId: `${T}:${n}`, md5: 'x' }, 0);
    expect(s.effective).toBe(3);
    for (const n of [4, 5, 6]) reduce(s, { kind: 'file-uploaded', fileId: `${T}:${n}`, md5: 'x' }, 0);
    expect(s.effective).toBe(4);
  });

  it('fails a file for the user after the last attempt, keeping its batch waiting', () => {
    const s = started({ multipartMaxFileBytes: 0 }, [5, 5]);
    pump(s, 0);
    reduce(s, { kind: 'file-uploaded', fileId: `${T}:1`, md5: 'x' }, 0);
    let now = 0;
    for (let i = 0; i < 8; i++) {
      now += 60_000;
      pump(s, now);
      reduce(s, { kind: 'file-failed', fileId: `${T}:0`, error: 'stalled', failure: 'transient' }, now);
    }
    expect(file(s, 0).state).toBe('failed');
    expect(file(s, 0).error).toMatch(/after 8 attempts/);
    expect(batch(s).state).toBe('uploading');
  });

  it('gives each create a derived Assembly id: the walk past spent ids is kept, and a new generation starts again at its first id', () => {
    const s = queue({}, [5, 5]);
    reduce(s, { kind: 'scan-ended', transferId: T }, 0);
    const first = pump(s, 0).commands[0] as Extract<Command, { kind: 'create-batch' }>;
    expect(first).toMatchObject({ generation: 0, idAttempt: 0 });
    // The creator found ids 0 and 1 spent (cut requests) and lost the answer of id 2's request.
    reduce(s, { kind: 'batch-create-failed', batchId: first.batchId, generation: 0, error: { code: 'NETWORK_ERROR', message: 'reset' }, failure: 'transient', ambiguous: true, excluded: [], idAttempt: 2 }, 0);
    expect(batch(s).idAttempt).toBe(2);
    const again = pump(s, 10_000).commands[0] as Extract<Command, { kind: 'create-batch' }>;
    expect(again).toMatchObject({ generation: 0, idAttempt: 2, lookFirst: true });
    // An answer never moves the walk back.
    reduce(s, { kind: 'batch-create-failed', batchId: first.batchId, generation: 0, error: { code: 'NETWORK_ERROR', message: 'reset' }, failure: 'transient', ambiguous: true, excluded: [], idAttempt: 1 }, 10_000);
    expect(batch(s).idAttempt).toBe(2);
    // Paused while on the wire: the batch goes again as a new generation, from that generation's first id.
    const third = pump(s, 20_000).commands[0] as Extract<Command, { kind: 'create-batch' }>;
    expect(third.idAttempt).toBe(2);
    control(s, 'pause', { kind: 'all' }, 20_000);
    control(s, 'resume', { kind: 'all' }, 20_000);
    expect(pump(s, 20_000).commands[0]).toMatchObject({ kind: 'create-batch', generation: 1, idAttempt: 0, lookFirst: false });
  });

  it('derives 32-hex Assembly ids, the same for the same batch, generation and attempt, different otherwise', () => {
    const id = assemblyIdOf(`${T}:b0`, 0, 0);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(assemblyIdOf(`${T}:b0`, 0, 0)).toBe(id);
    const others = [assemblyIdOf(`${T}:b1`, 0, 0), assemblyIdOf(`${T}:b0`, 1, 0), assemblyIdOf(`${T}:b0`, 0, 1), assemblyIdOf(`t2:b0`, 0, 0)];
    expect(new Set([id, ...others]).size).toBe(5);
  });

  it('a lost answer to a create marks the batch so the next attempt looks its Assembly up first', () => {
    const s = queue();
    reduce(s, { kind: 'scan-ended', transferId: T }, 0);
    const create = pump(s, 0).commands[0] as Extract<Command, { kind: 'create-batch' }>;
    reduce(s, { kind: 'batch-create-failed', batchId: create.batchId, generation: 0, error: { code: 'NETWORK_ERROR', message: 'reset' }, failure: 'transient', ambiguous: true, excluded: [] }, 0);
    expect(file(s, 0).state).toBe('queued');
    expect(pump(s, 0).commands).toEqual([]); // backing off
    expect(pump(s, 10_000).commands[0]).toMatchObject({ kind: 'create-batch', lookFirst: true });
  });
});

describe('checksums', () => {
  it('a mismatch before the end cancels the Assembly and sends the batch again, saying so on the row; the completed Assembly verifies', () => {
    const s = started({ multipartMaxFileBytes: 0 }, [5, 5]);
    sentByTus(s, [0], 'good');
    reduce(s, { kind: 'file-uploaded', fileId: `${T}:1`, md5: 'fine' }, 0);
    expect(batch(s).state).toBe('processing');
    const step = reduce(s, { kind: 'assembly-status', batchId: batch(s).id, checks: [{ fileId: `${T}:1`, serviceMd5: 'fine', delivered: true }, { fileId: `${T}:0`, serviceMd5: 'bad', delivered: true }], terminal: false, error: null, uploads: null }, 0);
    expect(kinds(step.commands)).toEqual(['cancel-assembly']);
    expect(batch(s)).toMatchObject({ state: 'queued', generation: 1, assemblyUrl: null });
    expect(file(s, 0)).toMatchObject({ state: 'queued', bytesSent: 0, uploadUrl: null });
    expect(file(s, 0).note).toMatch(/checksum did not match/);
    expect(file(s, 1).note).toMatch(/another file/);
    // The second Assembly: both match.
    created(s);
    pump(s, 0);
    for (const n of [0, 1]) {
      reduce(s, { kind: 'tus-url', fileId: `${T}:${n}`, url: `http://svc/resumable/files/v${n}` }, 0);
      reduce(s, { kind: 'file-uploaded', fileId: `${T}:${n}`, md5: n === 0 ? 'good' : 'fine' }, 0);
    }
    expect([file(s, 0).state, file(s, 1).state]).toEqual(['uploaded', 'uploaded']);
    const end = reduce(s, { kind: 'assembly-status', batchId: batch(s).id, checks: [], terminal: true, error: null, uploads: [tusUp('v0', 5, 'good'), tusUp('v1', 5, 'fine')] }, 0);
    expect([file(s, 0).state, file(s, 1).state, batch(s).state]).toEqual(['verified', 'verified', 'completed']);
    expect(kinds(end.commands)).toEqual(['remember-verified', 'remember-verified']);
  });

  it('trusts the service for an upload it received whole after a restart, and hashes the file to verify it', () => {
    const s = started({ multipartMaxFileBytes: 0 }, [5]);
    pump(s, 0);
    reduce(s, { kind: 'tus-url', fileId: `${T}:0`, url: 'http://svc/resumable/files/u0' }, 0);
    restored(s);
    expect(file(s, 0).state).toBe('queued');
    const step = reduce(s, { kind: 'assembly-status', batchId: batch(s).id, checks: [{ fileId: `${T}:0`, serviceMd5: 'h', delivered: true }], terminal: true, error: null, uploads: [tusUp('u0', 5, 'h')] }, 0);
    expect(kinds(step.commands)).toEqual(['hash-file']);
    expect(batch(s).state).toBe('completed');
    reduce(s, { kind: 'file-hashed', fileId: `${T}:0`, md5: 'h' }, 0);
    expect(file(s, 0).state).toBe('verified');
  });
});

describe('controls', () => {
  it('pause stops a tus upload (abort) and resume queues it again; pause all holds everything', () => {
    const s = started({ multipartMaxFileBytes: 0 }, [5, 5]);
    pump(s, 0);
    const paused = control(s, 'pause', { kind: 'files', ids: [`${T}:0`] }, 0);
    expect([paused.affected, kinds(paused.commands)]).toEqual([1, ['abort-file']]);
    expect(file(s, 0).state).toBe('paused');
    expect(pump(s, 0).commands).toEqual([]);
    expect(control(s, 'resume', { kind: 'files', ids: [`${T}:0`] }, 0).affected).toBe(1);
    control(s, 'pause', { kind: 'all' }, 0);
    expect(pump(s, 0).commands).toEqual([]);
    expect(file(s, 1).state).toBe('paused');
    control(s, 'resume', { kind: 'all' }, 0);
    expect(kinds(pump(s, 0).commands)).toEqual(['upload-tus', 'upload-tus']);
  });

  it('canceling a file its Assembly waits for asks first (what goes again), then creates the batch again without it', () => {
    const s = started({ multipartMaxFileBytes: 0 }, [5, 5, 5]);
    pump(s, 0);
    reduce(s, { kind: 'file-uploaded', fileId: `${T}:0`, md5: 'x' }, 0);
    const asked = control(s, 'cancel', { kind: 'files', ids: [`${T}:2`] }, 0);
    expect(asked).toMatchObject({ affected: 0, commands: [] });
    // The delivered file would go again whole; the one under way has sent nothing yet, so it loses nothing.
    expect(asked.confirm?.batches.map((b) => [b.resendFiles, b.resendBytes, b.lostBytes, b.files.map((f) => [f.done, f.bytesSent])])).toEqual([[1, 5, 5, [[true, 5]]]]);
    expect([file(s, 0).state, file(s, 2).state, batch(s).generation]).toEqual(['uploaded', 'uploading', 0]);
    const step = control(s, 'cancel', { kind: 'files', ids: [`${T}:2`] }, 0, { resend: true });
    expect(kinds(step.commands)).toEqual(['abort-file', 'cancel-assembly', 'abort-file']);
    expect(batch(s)).toMatchObject({ state: 'queued', generation: 1 });
    expect([file(s, 0).state, file(s, 1).state, file(s, 2).state]).toEqual(['queued', 'queued', 'canceled']);
    const again = pump(s, 0).commands[0] as Extract<Command, { kind: 'create-batch' }>;
    expect(again.tus).toEqual([`${T}:0`, `${T}:1`]);
  });

  it('canceling a file inside a create request on the wire abandons it: the late answer is canceled, the batch goes again without the file under a new marker', () => {
    const s = queue({}, [5, 5]);
    reduce(s, { kind: 'scan-ended', transferId: T }, 0);
    const first = pump(s, 0).commands[0] as Extract<Command, { kind: 'create-batch' }>;
    expect(first.multipart).toEqual([`${T}:0`, `${T}:1`]);
    expect(kinds(control(s, 'cancel', { kind: 'files', ids: [`${T}:1`] }, 0).commands)).toEqual(['abort-create']);
    const again = pump(s, 0).commands[0] as Extract<Command, { kind: 'create-batch' }>;
    // Not looked for by the old marker: that Assembly (if the service made it) carries the canceled file.
    expect(again).toMatchObject({ generation: first.generation + 1, multipart: [`${T}:0`], lookFirst: false });
    const answer = (generation: number, id: string) =>
      reduce(s, { kind: 'batch-created', batchId: first.batchId, generation, assemblyId: id, assemblyUrl: `http://svc/assemblies/${id}`, tusUrl: null, runId: `r-${id}`, excluded: [], tus: [], delivered: [{ fileId: `${T}:0`, md5: 'm', serviceMd5: 'm' }], terminal: false, error: null, uploads: null }, 0);
    expect(answer(again.generation, 'new').commands).toEqual([]);
    // The abandoned request's answer arrives late: its Assembly is canceled, the batch's own is kept.
    expect(answer(first.generation, 'old').commands).toEqual([{ kind: 'cancel-assembly', batchId: first.batchId, assemblyUrl: 'http://svc/assemblies/old', runId: 'r-old' }]);
    expect(batch(s)).toMatchObject({ assemblyId: 'new', runId: 'r-new' });
    expect([file(s, 0).state, file(s, 1).state]).toEqual(['uploaded', 'canceled']);
  });

  it('pause all while a create request is on the wire stops it: its files show Paused at once, it goes again on resume', () => {
    const s = queue({}, [5, 5]);
    reduce(s, { kind: 'scan-ended', transferId: T }, 0);
    const first = pump(s, 0).commands[0] as Extract<Command, { kind: 'create-batch' }>;
    expect([file(s, 0).state, file(s, 1).state]).toEqual(['uploading', 'uploading']);
    const paused = control(s, 'pause', { kind: 'all' }, 0);
    expect(kinds(paused.commands)).toEqual(['abort-create']);
    expect([file(s, 0).state, file(s, 1).state, batch(s).state]).toEqual(['paused', 'paused', 'queued']);
    expect(pump(s, 0).commands).toEqual([]);
    // The aborted request's answer (an error, or an Assembly it still made) is for the old generation.
    reduce(s, { kind: 'batch-create-failed', batchId: first.batchId, generation: first.generation, error: { code: 'NETWORK_ERROR', message: 'aborted' }, failure: 'transient', ambiguous: true, excluded: [] }, 0);
    expect([file(s, 0).state, batch(s).state, batch(s).ambiguous]).toEqual(['paused', 'queued', false]);
    control(s, 'resume', { kind: 'all' }, 0);
    const again = pump(s, 0).commands[0] as Extract<Command, { kind: 'create-batch' }>;
    expect(again).toMatchObject({ kind: 'create-batch', generation: first.generation + 1, multipart: [`${T}:0`, `${T}:1`], lookFirst: false });
  });

  it('pausing one file leaves a create request on the wire alone (it cannot take the file out)', () => {
    const s = queue({}, [5, 5]);
    reduce(s, { kind: 'scan-ended', transferId: T }, 0);
    pump(s, 0);
    expect(control(s, 'pause', { kind: 'files', ids: [`${T}:0`] }, 0)).toMatchObject({ affected: 0, commands: [] });
    expect(batch(s).state).toBe('creating');
  });

  it('"send without the failed files" (cancel the failed ones) re-creates the batch; retry of a canceled file makes a batch of its own', () => {
    const s = started({ multipartMaxFileBytes: 0 }, [5, 5]);
    pump(s, 0);
    reduce(s, { kind: 'file-failed', fileId: `${T}:1`, error: 'HTTP 400', failure: 'fatal' }, 0);
    reduce(s, { kind: 'file-uploaded', fileId: `${T}:0`, md5: 'x' }, 0);
    expect(batch(s).state).toBe('uploading'); // waits for the failed one
    control(s, 'cancel', { kind: 'files', ids: [`${T}:1`] }, 0, { resend: true });
    expect(batch(s).state).toBe('queued');
    const retried = control(s, 'retry', { kind: 'files', ids: [`${T}:1`] }, 0);
    expect(retried.affected).toBe(1);
    // The batch was not created again yet: the file simply goes with it.
    expect(file(s, 1).batchId).toBe(batch(s).id);
  });

  it('cancel of a batch cancels its Assembly; retry of the batch sends it again', () => {
    const s = started({ multipartMaxFileBytes: 0 }, [5]);
    const step = control(s, 'cancel', { kind: 'batch', id: batch(s).id }, 0);
    expect(kinds(step.commands)).toEqual(['cancel-assembly']);
    expect([batch(s).state, file(s, 0).state]).toEqual(['canceled', 'canceled']);
    // The Assembly's last status (ASSEMBLY_CANCELED) comes after: the batch stays canceled, not failed.
    reduce(s, { kind: 'assembly-status', batchId: batch(s).id, checks: [], terminal: true, error: null, uploads: [] }, 0);
    expect([batch(s).state, batch(s).error]).toEqual(['canceled', null]);
    control(s, 'retry', { kind: 'batch', id: batch(s).id }, 0);
    expect([batch(s).state, file(s, 0).state, batch(s).generation]).toEqual(['queued', 'queued', 1]);
    expect(kinds(pump(s, 0).commands)).toEqual(['create-batch']);
  });

  it('a changed concurrency applies at once', () => {
    const s = queue({ concurrency: 4 });
    reduce(s, { kind: 'settings', settings: { ...s.settings, concurrency: 1 } }, 0);
    expect(s.effective).toBe(1);
    reduce(s, { kind: 'settings', settings: { ...s.settings, concurrency: 6 } }, 0);
    expect(s.effective).toBe(6);
  });
});

describe('a service that gives no md5hash', () => {
  it('ends a completed batch with its files "unverified" and says so once, for the batch, not per row', () => {
    const s = started({ multipartMaxFileBytes: 0 }, [5, 5]);
    sentByTus(s, [0, 1]);
    const last = reduce(s, { kind: 'assembly-status', batchId: batch(s).id, checks: [], terminal: true, error: null, uploads: [tusUp('u0', 5, null), tusUp('u1', 5, null)] }, 0);
    expect([file(s, 0).state, file(s, 1).state, batch(s).state]).toEqual(['unverified', 'unverified', 'completed']);
    expect(batch(s).note).toMatch(/^Not verified: this service records no checksums/);
    expect([file(s, 0).note, file(s, 1).note]).toEqual([null, null]);
    expect(last.changes.files.has(`${T}:1`)).toBe(true);
    expect(kinds(last.commands)).not.toContain('remember-verified');
  });

  it('a file without a checksum where the others have one is not "not verified": it is sent again', () => {
    const s = started({ multipartMaxFileBytes: 0 }, [5, 5]);
    sentByTus(s, [0, 1]);
    reduce(s, { kind: 'assembly-status', batchId: batch(s).id, checks: [], terminal: true, error: null, uploads: [tusUp('u0', 5, 'x'), tusUp('u1', 5, null)] }, 0);
    expect([file(s, 0).state, file(s, 1).state, batch(s).note]).toEqual(['verified', 'queued', null]);
    expect(file(s, 1).note).toMatch(/no checksum for this file .* though it did for the others/);
  });
});

describe('the invariant: every file sent is in its completed Assembly once, with its size and md5', () => {
  /** Batch 0 of three small files, all sent in the create request (file_0…file_2), its Assembly created. */
  const sentByMultipart = () => started({}, [10, 20, 30]);
  const complete = (s: EngineState, uploads: SeenUpload[], now = 0, seq = 0) => reduce(s, { kind: 'assembly-status', batchId: batch(s, seq).id, checks: [], terminal: true, error: null, uploads }, now);

  it('verifies the files listed once with their size and md5, and never calls one done before the Assembly completes', () => {
    const s = sentByMultipart();
    expect([0, 1, 2].map((n) => file(s, n).state)).toEqual(['uploaded', 'uploaded', 'uploaded']);
    complete(s, [partUp('file_0', 10, 'm'), partUp('file_1', 20, 'm'), partUp('file_2', 30, 'm')]);
    expect([0, 1, 2].map((n) => file(s, n).state)).toEqual(['verified', 'verified', 'verified']);
    expect([...s.batches.values()]).toHaveLength(1);
  });

  it('sends a file that is absent, listed twice, or of another size or md5 again, in a new batch of its own; the others stay done', () => {
    const s = sentByMultipart();
    const step = complete(s, [partUp('file_0', 10, 'other'), partUp('file_2', 30, 'm'), partUp('file_2', 30, 'm')], 1_000);
    expect(batch(s).state).toBe('completed');
    expect(batch(s).fileIds).toEqual([]);
    const again = batch(s, 1);
    expect(again).toMatchObject({ label: 'Drop (sent again)', sealed: true, state: 'queued', fileIds: [`${T}:0`, `${T}:1`, `${T}:2`], retryAt: 1_500 });
    expect(file(s, 0).note).toBe("Sent again in a new Assembly: The service's checksum did not match (sent m, it recorded other).");
    expect(file(s, 1).note).toBe('Sent again in a new Assembly: Missing from its Assembly (a1): the service completed it without this file.');
    expect(file(s, 2).note).toBe('Sent again in a new Assembly: Listed 2 times in its Assembly (a1), not once.');
    for (const n of [0, 1, 2]) expect(file(s, n)).toMatchObject({ state: 'queued', batchId: again.id, resends: 1, bytesSent: 0, md5: null });
    expect(kinds(step.commands)).not.toContain('remember-verified');
    expect(pump(s, 1_000).commands).toEqual([]);
    expect(kinds(pump(s, 1_500).commands)).toEqual(['create-batch']);
  });

  it('a file the service records with another size fails its Assembly too', () => {
    const s = sentByMultipart();
    complete(s, [partUp('file_0', 10, 'm'), partUp('file_1', 19, 'm'), partUp('file_2', 30, 'm')]);
    expect(file(s, 1).note).toBe('Sent again in a new Assembly: The service recorded 19 bytes in its Assembly (a1); 20 bytes were sent.');
    expect([file(s, 0).state, file(s, 2).state]).toEqual(['verified', 'verified']);
  });

  it(`after ${MAX_RESENDS} resends a file that is still missing is Failed with the reason, never done`, () => {
    const s = started({}, [10, 20]);
    let now = 0;
    complete(s, [partUp('file_0', 10, 'm')], now);
    for (let seq = 1; seq <= MAX_RESENDS; seq++) {
      now += 60_000;
      const create = pump(s, now).commands.find((c) => c.kind === 'create-batch') as Extract<Command, { kind: 'create-batch' }>;
      expect(create).toMatchObject({ batchId: batch(s, seq).id, multipart: [`${T}:1`] });
      reduce(s, { kind: 'batch-created', batchId: create.batchId, generation: 0, assemblyId: `a${seq + 1}`, assemblyUrl: `http://svc/assemblies/a${seq + 1}`, tusUrl: null, runId: null, excluded: [], tus: [], delivered: [{ fileId: `${T}:1`, md5: 'm', serviceMd5: null }], terminal: true, error: null, uploads: [] }, now);
    }
    expect(s.batches.size).toBe(MAX_RESENDS + 1);
    expect(file(s, 1)).toMatchObject({ state: 'failed', resends: MAX_RESENDS + 1, batchId: batch(s, MAX_RESENDS).id });
    expect(file(s, 1).error).toBe(`Missing from its Assembly (a${MAX_RESENDS + 1}): the service completed it without this file. Sent ${MAX_RESENDS + 1} times; not sent again.`);
    expect(file(s, 0).state).toBe('verified');
    expect(pump(s, now + 60_000).commands).toEqual([]);
  });

  it('a tus file whose upload the Assembly does not list (or whose upload URL was never learned) is missing', () => {
    const s = started({ multipartMaxFileBytes: 0 }, [5, 5]);
    sentByTus(s, [0]);
    complete(s, [tusUp('u0', 5, 'x'), tusUp('elsewhere', 5, 'x')]);
    expect([file(s, 0).state, file(s, 1).state]).toEqual(['verified', 'queued']);
    expect(file(s, 1).batchId).toBe(batch(s, 1).id);
  });
});

describe('an Assembly that ends in an error', () => {
  const ended = (s: EngineState, code: string, now = 0) =>
    reduce(s, { kind: 'assembly-status', batchId: batch(s).id, checks: [], terminal: true, error: { code, message: `${code} happened` }, uploads: null }, now);

  it('fails the batch and every file of it not done with the reason: none is left Verifying', () => {
    const s = started({}, [10, 20]);
    expect([file(s, 0).state, file(s, 1).state]).toEqual(['uploaded', 'uploaded']);
    ended(s, 'ROBOT_FAILED');
    expect(batch(s)).toMatchObject({ state: 'failed', error: { code: 'ROBOT_FAILED' } });
    for (const n of [0, 1]) expect(file(s, n)).toMatchObject({ state: 'failed', error: 'ROBOT_FAILED: ROBOT_FAILED happened' });
  });

  it('sends the batch again as a new Assembly when the service stopped while it ran (ASSEMBLY_CRASHED), and fails it after the resends', () => {
    const s = started({}, [10, 20]);
    let now = 0;
    for (let round = 1; round <= MAX_RESENDS; round++) {
      ended(s, 'ASSEMBLY_CRASHED', now);
      expect(batch(s)).toMatchObject({ state: 'queued', generation: round, assemblyId: null, error: null });
      for (const n of [0, 1]) expect(file(s, n)).toMatchObject({ state: 'queued', resends: round, bytesSent: 0, md5: null });
      expect(file(s, 0).note).toBe('Sent again with its batch: ASSEMBLY_CRASHED happened (ASSEMBLY_CRASHED)');
      now += 1_000;
      created(s, now, { generation: round });
    }
    ended(s, 'ASSEMBLY_CRASHED', now);
    expect(batch(s)).toMatchObject({ state: 'failed', error: { code: 'ASSEMBLY_CRASHED' } });
    for (const n of [0, 1]) expect(file(s, n).state).toBe('failed');
  });

  it('a create answered with an Assembly that had already failed fails its files too', () => {
    const s = queue({}, [10, 20]);
    reduce(s, { kind: 'scan-ended', transferId: T }, 0);
    created(s, 0, { terminal: true, error: { code: 'INVALID_FILE_META_DATA', message: 'bad' } });
    expect(batch(s).state).toBe('failed');
    for (const n of [0, 1]) expect(file(s, n)).toMatchObject({ state: 'failed', error: 'INVALID_FILE_META_DATA: bad' });
  });
});

describe('restore', () => {
  it('a create that was on the wire is looked for by its marker; uploads resume from their stored URL', () => {
    const s = queue({ multipartMaxFileBytes: 0 }, [5, 5], 'every-n', 1);
    const creates = pump(s, 0).commands as Array<Extract<Command, { kind: 'create-batch' }>>;
    expect(creates.map((c) => c.batchId)).toEqual([batch(s, 0).id, batch(s, 1).id]);
    reduce(s, { kind: 'batch-created', batchId: batch(s, 1).id, generation: 0, assemblyId: 'a', assemblyUrl: 'http://svc/assemblies/a', tusUrl: 'http://svc/resumable/files/', runId: null, excluded: [], tus: [`${T}:1`], delivered: [], terminal: false, error: null, uploads: null }, 0);
    pump(s, 0);
    reduce(s, { kind: 'tus-url', fileId: `${T}:1`, url: 'http://svc/resumable/files/u1' }, 0);
    restored(s);
    expect(batch(s, 0)).toMatchObject({ state: 'queued', ambiguous: true });
    expect(file(s, 1)).toMatchObject({ state: 'queued', uploadUrl: 'http://svc/resumable/files/u1' });
    const commands = pump(s, 0).commands;
    expect(commands.map((x) => [x.kind, 'lookFirst' in x ? x.lookFirst : null])).toEqual([['upload-tus', null], ['create-batch', true]]);
  });
});

describe('what the rows and the answers say', () => {
  it('answers the files it changed: "Resumed: 3 files" for 3, a batch paused counts its files only', () => {
    const s = queue({ multipartMaxFileBytes: 0 }, [5, 5, 5]);
    reduce(s, { kind: 'scan-ended', transferId: T }, 0);
    expect(control(s, 'pause', { kind: 'all' }, 0).affected).toBe(3);
    expect(control(s, 'resume', { kind: 'all' }, 0).affected).toBe(3);
    expect(control(s, 'pause', { kind: 'batch', id: batch(s).id }, 0).affected).toBe(3);
    expect(control(s, 'resume', { kind: 'batch', id: batch(s).id }, 0).affected).toBe(3);
    // Nothing to hold: the flag changes, no file does.
    expect(control(s, 'pause', { kind: 'all' }, 0).affected).toBe(3);
    expect(control(s, 'pause', { kind: 'all' }, 0).affected).toBe(0);
  });

  it('drops "Retrying: …" once the file arrived, however the engine learned it', () => {
    const s = started({ multipartMaxFileBytes: 0 }, [5, 5]);
    pump(s, 0);
    for (const n of [0, 1]) reduce(s, { kind: 'file-failed', fileId: `${T}:${n}`, error: 'connect ECONNREFUSED 127.0.0.1:4000', failure: 'transient' }, 0);
    expect(file(s, 0).note).toBe('Retrying: connect ECONNREFUSED 127.0.0.1:4000');
    pump(s, 10_000);
    reduce(s, { kind: 'tus-url', fileId: `${T}:1`, url: 'http://svc/resumable/files/u1' }, 10_000);
    // One by its own upload's answer, the other because the Assembly's status lists it whole.
    reduce(s, { kind: 'file-uploaded', fileId: `${T}:0`, md5: 'x' }, 10_000);
    reduce(s, { kind: 'assembly-status', batchId: batch(s).id, checks: [{ fileId: `${T}:1`, serviceMd5: null, delivered: true }], terminal: false, error: null, uploads: null }, 10_000);
    expect([file(s, 0).note, file(s, 1).note]).toEqual([null, null]);
    expect(file(s, 1).state).toBe('uploaded');
  });
});
