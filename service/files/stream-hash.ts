// md5 and sha256 of an upload computed while its bytes stream to disk, so recording the upload never
// reads the file again. Each algorithm runs on a worker thread of its own, so the two run side by side
// where there are cores: on the main thread md5 alone cost as much CPU as receiving the bytes (md5 runs
// at ~600 MB/s on one core, sha256 with SHA-NI a little faster), so an upload went no faster than the
// hash. Chunks are copied once into batches of shared memory that both threads read, with backpressure:
// a stream that runs ahead of either thread by more than MAX_IN_FLIGHT_BYTES waits. The batches are
// kept and filled again once both threads hashed them: a fresh 1 MiB buffer per thread per MiB (the way
// before) cost more than the copy many times over (new pages zeroed and faulted in, freed again, and the
// garbage collections their external memory set off in the service's heap). A running hash cannot be
// persisted in Node, so after a restart (or a PATCH that failed midway) the prefix already on disk is
// hashed once, then streaming goes on.

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { Worker } from 'node:worker_threads';

/** Lowercase hex digests of a file's bytes. */
export interface FileDigests {
  md5: string;
  sha256: string;
}

type Algorithm = keyof FileDigests;

/** Bytes sent to a thread and not yet hashed, per hash, before its stream waits. */
const MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;
/** Chunks are gathered into shared batches of this size: one message (and one answer) per thread per batch. */
export const BATCH_BYTES = 4 * 1024 * 1024;
/** Idle batches kept for the next stream (at most this many bytes of them). */
const POOL_BYTES = 32 * 1024 * 1024;
/** The pool is emptied after this long without a batch going back to it (no upload in progress keeps memory). */
const POOL_IDLE_MS = 5000;
/**
 * A stream that ends within this many bytes is hashed on the main thread at its end: for a small file two
 * worker round trips (and, before, a 1 MiB batch per hash per file, which is what made a 100,000-file run
 * grow the service to 8 GB) cost more than hashing its bytes where they are.
 */
export const INLINE_HASH_BYTES = 64 * 1024;

// CommonJS source for `eval`: no file to resolve, whatever loader the service runs under. A thread is sent
// each batch's shared memory once (then only its number) and answers every batch it hashed, so the batch
// can be filled again; 'forget' is sent for a batch leaving the pool.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
const batches = new Map();
parentPort.on('message', (m) => {
  if (m.op === 'forget') { batches.delete(m.batch); return; }
  if (m.op === 'drop') { hashes.delete(m.id); return; }
  let hashed = 0;
  if (m.batch !== undefined) {
    let bytes = batches.get(m.batch);
    if (!bytes) { bytes = new Uint8Array(m.memory); batches.set(m.batch, bytes); }
    let h = hashes.get(m.id);
    if (!h) { h = createHash(workerData.algorithm); hashes.set(m.id, h); }
    h.update(bytes.subarray(0, m.length));
    hashed = m.length;
  }
  if (m.op === 'digest') {
    const h = hashes.get(m.id);
    hashes.delete(m.id);
    parentPort.postMessage({ id: m.id, batch: m.batch, hashed, hex: (h || createHash(workerData.algorithm)).digest('hex') });
  } else {
    parentPort.postMessage({ id: m.id, batch: m.batch, hashed });
  }
});`;

/** A batch of shared memory both threads read; filled by the main thread only while no thread holds it. */
interface Batch {
  id: number;
  bytes: Uint8Array<SharedArrayBuffer>;
  /** Threads still to hash it. */
  readers: number;
  /** Threads that were sent its memory (and keep it until told to forget it). */
  known: Set<HashThread>;
}

const pool: Batch[] = [];
const held = new Map<number, Batch>();
let nextBatch = 1;
let lastReturn = 0;
let poolTrim: NodeJS.Timeout | null = null;

/** A batch leaves for good: the threads that keep its memory drop it too. */
function discard(b: Batch): void {
  for (const t of b.known) if (!t.dead) t.worker.postMessage({ op: 'forget', batch: b.id });
  b.known.clear();
}

function takeBatch(): Batch {
  const b = pool.pop() ?? { id: nextBatch++, bytes: new Uint8Array(new SharedArrayBuffer(BATCH_BYTES)), readers: 0, known: new Set<HashThread>() };
  held.set(b.id, b);
  return b;
}

function emptyPoolWhenIdle(): void {
  lastReturn = Date.now();
  if (poolTrim) return;
  const check = (): void => {
    if (Date.now() - lastReturn < POOL_IDLE_MS) {
      poolTrim = setTimeout(check, POOL_IDLE_MS).unref();
      return;
    }
    pool.splice(0).forEach(discard);
    poolTrim = null;
  };
  poolTrim = setTimeout(check, POOL_IDLE_MS).unref();
}

/** One reader is done with batch `id` (hashed it, or its thread died); the last one puts it back. */
function release(id: number): void {
  const b = held.get(id);
  if (!b || --b.readers > 0) return;
  held.delete(id);
  if (pool.length * BATCH_BYTES >= POOL_BYTES) return discard(b);
  pool.push(b);
  emptyPoolWhenIdle();
}

interface Session {
  inFlight: number;
  drained: (() => void)[];
  digested?: (hex: string | null) => void;
}

interface HashThread {
  worker: Worker;
  sessions: Map<number, Session>;
  /** Batches sent and not yet answered (a batch may be sent to it more than once only after an answer). */
  holding: Set<number>;
  dead: boolean;
}

const threads = new Map<Algorithm, HashThread>();
let nextId = 1;

function settleAll(algorithm: Algorithm, t: HashThread): void {
  if (t.dead) return;
  t.dead = true;
  for (const b of t.holding) release(b);
  t.holding.clear();
  for (const s of t.sessions.values()) {
    s.digested?.(null);
    for (const go of s.drained.splice(0)) go();
  }
  t.sessions.clear();
  if (threads.get(algorithm) === t) threads.delete(algorithm);
}

/** The shared thread of one algorithm, started on first use; it never keeps the process alive. */
function hashThread(algorithm: Algorithm): HashThread {
  const running = threads.get(algorithm);
  if (running) return running;
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { algorithm } });
  const t: HashThread = { worker, sessions: new Map(), holding: new Set(), dead: false };
  worker.unref();
  worker.on('message', (m: { id: number; batch?: number; hashed: number; hex?: string }) => {
    if (m.batch !== undefined && t.holding.delete(m.batch)) release(m.batch);
    const s = t.sessions.get(m.id);
    if (!s) return;
    s.inFlight -= m.hashed;
    if (s.inFlight <= MAX_IN_FLIGHT_BYTES / 2) for (const go of s.drained.splice(0)) go();
    if (m.hex !== undefined) {
      t.sessions.delete(m.id);
      s.digested?.(m.hex);
    }
  });
  // A dead worker costs the digests in progress (null: read from disk instead), never an upload.
  worker.on('error', () => settleAll(algorithm, t));
  worker.on('exit', () => settleAll(algorithm, t));
  threads.set(algorithm, t);
  return t;
}

/** md5 and sha256 of a stream, computed off the main thread; `digest` gives them (null when a thread failed). */
export interface StreamHash {
  update(chunk: Buffer): void;
  /** True when the caller should wait (whenDrained) before sending more. */
  congested(): boolean;
  whenDrained(): Promise<void>;
  /** Ends the hash. */
  digest(): Promise<FileDigests | null>;
  /** Ends the hash without a digest. */
  drop(): void;
}

/** One algorithm's hash of a stream on its thread, fed the batches threadedHash fills. */
interface ThreadDigest {
  /** Sends `length` bytes of batch `b` to hash (none when b is null); `last` ends the hash. Returns whether the thread took the batch. */
  send(b: Batch | null, length: number, last: boolean): boolean;
  congested(): boolean;
  whenDrained(): Promise<void>;
  /** The hex once the hash ended; null when its thread failed or it was dropped. */
  result: Promise<string | null>;
  dead(): boolean;
  drop(): void;
}

function threadDigest(algorithm: Algorithm): ThreadDigest {
  const t = hashThread(algorithm);
  const id = nextId++;
  const session: Session = { inFlight: 0, drained: [] };
  t.sessions.set(id, session);
  const result = new Promise<string | null>((resolve) => (session.digested = resolve));
  let ended = false;
  return {
    send(b, length, last) {
      if (ended || t.dead) return false;
      if (last) ended = true;
      if (!b) {
        t.worker.postMessage({ op: last ? 'digest' : 'update', id });
        return false;
      }
      session.inFlight += length;
      t.holding.add(b.id);
      const first = !b.known.has(t);
      b.known.add(t);
      t.worker.postMessage({ op: last ? 'digest' : 'update', id, batch: b.id, length, ...(first ? { memory: b.bytes.buffer } : {}) });
      return true;
    },
    congested: () => !t.dead && session.inFlight > MAX_IN_FLIGHT_BYTES,
    whenDrained: () => (t.dead || session.inFlight <= MAX_IN_FLIGHT_BYTES ? Promise.resolve() : new Promise<void>((go) => session.drained.push(go))),
    result,
    dead: () => t.dead,
    drop() {
      if (ended) return;
      ended = true;
      t.sessions.delete(id);
      session.digested?.(null);
      if (!t.dead) t.worker.postMessage({ op: 'drop', id });
    },
  };
}

/** Both hashes on the worker threads, each fed the same shared batches. */
function threadedHash(): StreamHash {
  const both = [threadDigest('md5'), threadDigest('sha256')] as const;
  let ended = false;
  let batch: Batch | null = null;
  let filled = 0;
  /** Hands the batch being filled (if any bytes) to both threads; it goes back to the pool once both hashed it. */
  const flush = (last: boolean): void => {
    const b = batch && filled > 0 ? batch : null;
    const length = filled;
    batch = null;
    filled = 0;
    if (b) b.readers = 2;
    // A thread that did not take it (dead) is not waited for.
    for (const h of both) if (!h.send(b, length, last) && b) release(b.id);
  };
  const dead = (): boolean => both.some((h) => h.dead());
  return {
    update(chunk) {
      if (ended || dead()) return;
      for (let at = 0; at < chunk.length; ) {
        if (!batch) batch = takeBatch();
        const n = Math.min(chunk.length - at, BATCH_BYTES - filled);
        batch.bytes.set(chunk.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === BATCH_BYTES) flush(false);
      }
    },
    congested: () => both.some((h) => h.congested()),
    whenDrained: () => Promise.all(both.map((h) => h.whenDrained())).then(() => undefined),
    async digest() {
      if (ended) return null;
      ended = true;
      if (dead()) {
        giveBack();
        both.forEach((h) => h.drop());
        return null;
      }
      flush(true);
      const [md5, sha256] = await Promise.all(both.map((h) => h.result));
      return md5 && sha256 ? { md5, sha256 } : null;
    },
    drop() {
      if (ended) return;
      ended = true;
      giveBack();
      both.forEach((h) => h.drop());
    },
  };
  /** The batch being filled, never sent, goes back to the pool. */
  function giveBack(): void {
    if (!batch) return;
    const b = batch;
    batch = null;
    filled = 0;
    b.readers = 1;
    release(b.id);
  }
}

/**
 * md5 and sha256 of a stream of bytes. The first INLINE_HASH_BYTES are kept (copied: a socket chunk may
 * share its memory); a stream that ends there is hashed on the main thread, one that goes on hands them to
 * the worker threads and continues there.
 */
export function streamHash(): StreamHash {
  let kept: Buffer[] = [];
  let keptBytes = 0;
  let threaded: StreamHash | null = null;
  let ended = false;
  return {
    update(chunk) {
      if (ended) return;
      if (threaded) return threaded.update(chunk);
      if (keptBytes + chunk.length <= INLINE_HASH_BYTES) {
        kept.push(Buffer.from(chunk));
        keptBytes += chunk.length;
        return;
      }
      threaded = threadedHash();
      for (const k of kept) threaded.update(k);
      kept = [];
      threaded.update(chunk);
    },
    congested: () => threaded?.congested() ?? false,
    whenDrained: () => threaded?.whenDrained() ?? Promise.resolve(),
    digest() {
      if (ended) return Promise.resolve(null);
      ended = true;
      if (threaded) return threaded.digest();
      const md5 = createHash('md5');
      const sha256 = createHash('sha256');
      for (const k of kept) {
        md5.update(k);
        sha256.update(k);
      }
      kept = [];
      return Promise.resolve({ md5: md5.digest('hex'), sha256: sha256.digest('hex') });
    },
    drop() {
      ended = true;
      kept = [];
      threaded?.drop();
    },
  };
}

/** A hash fed with the first `length` bytes of a file (a resumed upload's prefix), to be continued. */
export async function hashPrefix(localPath: string, length: number): Promise<StreamHash> {
  const hash = streamHash();
  if (length <= 0) return hash;
  const input = createReadStream(localPath, { start: 0, end: length - 1, highWaterMark: 1024 * 1024 });
  for await (const chunk of input) {
    hash.update(chunk as Buffer);
    if (hash.congested()) await hash.whenDrained();
  }
  return hash;
}

/** One byte flipped (the test-only corruption fault); a new buffer, the input is left alone. */
export function flipFirstByte(chunk: Buffer): Buffer {
  if (chunk.length === 0) return chunk;
  const out = Buffer.from(chunk);
  out[0] = out[0]! ^ 0xff;
  return out;
}

/** A stream carried more bytes than it was allowed (a tus PATCH past its upload's length). */
export class TooManyBytes extends Error {}

export interface HashTapOptions {
  /** Flip one byte of the first non-empty chunk before it is hashed and stored (ASSEMBLYLINE_TEST_FAULT_CORRUPT). */
  corrupt?: boolean;
  /** More bytes than this fail the stream with TooManyBytes. */
  maxBytes?: number;
  /** Hears the byte count after each chunk. */
  onBytes?: (bytes: number) => void;
  /** How many of the first bytes to keep (head()); 0 by default. */
  headBytes?: number;
}

export interface HashTap {
  transform: Transform;
  /** Bytes that went through. */
  bytes(): number;
  /** The first `headBytes` bytes that went through (fewer when fewer came). */
  head(): Buffer;
}

/** A pass-through that feeds `hash` with every chunk on its way to disk (waiting when the hash falls behind). */
export function hashTap(hash: StreamHash, o: HashTapOptions = {}): HashTap {
  let seen = 0;
  let flip = o.corrupt === true;
  const max = o.maxBytes ?? Number.POSITIVE_INFINITY;
  const headBytes = o.headBytes ?? 0;
  const head: Buffer[] = [];
  const transform = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (seen + chunk.length > max) return cb(new TooManyBytes(`more than ${String(max)} bytes`));
      let out = chunk;
      if (flip && chunk.length > 0) {
        out = flipFirstByte(chunk);
        flip = false;
      }
      // A copy: the chunk's memory may be reused once it is written.
      if (seen < headBytes) head.push(Buffer.from(out.subarray(0, headBytes - seen)));
      seen += out.length;
      hash.update(out);
      o.onBytes?.(seen);
      if (!hash.congested()) return cb(null, out);
      void hash.whenDrained().then(() => cb(null, out));
    },
  });
  return { transform, bytes: () => seen, head: () => Buffer.concat(head) };
}
