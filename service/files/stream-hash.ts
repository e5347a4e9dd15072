// md5 and sha256 of an upload computed while its bytes stream to disk, so recording the upload never
// reads the file again. Each algorithm runs on a worker thread of its own, so the two run side by side
// where there are cores: on the main thread md5 alone cost as much CPU as receiving the bytes (md5 runs
// at ~600 MB/s on one core, sha256 with SHA-NI a little faster), so an upload went no faster than the
// hash. Chunks are copied to each worker (a memcpy, far cheaper than a hash) with backpressure: a stream
// that runs ahead of either worker by more than MAX_IN_FLIGHT_BYTES waits. A running hash cannot be
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

/** Bytes sent to a worker and not yet hashed, per hash, before its stream waits. */
const MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;
/** The worker reports progress after this many bytes of one hash. */
const ACK_EVERY_BYTES = 4 * 1024 * 1024;
/** Chunks are gathered into messages of up to this size: a message per 64 KiB socket chunk cost more than the copy. */
const BATCH_BYTES = 1024 * 1024;
/** The first message of a stream is this big at most; each next one twice the last, up to BATCH_BYTES. */
const FIRST_BATCH_BYTES = 128 * 1024;
/**
 * A stream that ends within this many bytes is hashed on the main thread at its end: for a small file two
 * worker round trips (and, before, a 1 MiB batch per hash per file, which is what made a 100,000-file run
 * grow the service to 8 GB) cost more than hashing its bytes where they are.
 */
export const INLINE_HASH_BYTES = 64 * 1024;

// CommonJS source for `eval`: no file to resolve, whatever loader the service runs under.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', (m) => {
  if (m.op === 'update' || (m.op === 'digest' && m.chunk)) {
    let h = hashes.get(m.id);
    if (!h) { h = { hash: createHash(workerData.algorithm), unacked: 0 }; hashes.set(m.id, h); }
    h.hash.update(m.chunk);
    h.unacked += m.chunk.byteLength;
    if (m.op === 'update' && h.unacked >= ${String(ACK_EVERY_BYTES)}) { parentPort.postMessage({ id: m.id, hashed: h.unacked }); h.unacked = 0; }
  }
  if (m.op === 'digest') {
    const h = hashes.get(m.id);
    hashes.delete(m.id);
    parentPort.postMessage({ id: m.id, hashed: h ? h.unacked : 0, hex: (h ? h.hash : createHash(workerData.algorithm)).digest('hex') });
  } else if (m.op === 'drop') {
    hashes.delete(m.id);
  }
});`;

interface Session {
  inFlight: number;
  drained: (() => void)[];
  digested?: (hex: string | null) => void;
}

interface HashThread {
  worker: Worker;
  sessions: Map<number, Session>;
  dead: boolean;
}

const threads = new Map<Algorithm, HashThread>();
let nextId = 1;

function settleAll(algorithm: Algorithm, t: HashThread): void {
  t.dead = true;
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
  const t: HashThread = { worker, sessions: new Map(), dead: false };
  worker.unref();
  worker.on('message', (m: { id: number; hashed: number; hex?: string }) => {
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

/** A hash computed off the main thread; `digest` gives the hex (null when its thread failed). */
interface StreamDigest<T> {
  update(chunk: Buffer): void;
  /** True when the caller should wait (whenDrained) before sending more. */
  congested(): boolean;
  whenDrained(): Promise<void>;
  /** Ends the hash. */
  digest(): Promise<T | null>;
  /** Ends the hash without a digest. */
  drop(): void;
}

/** md5 and sha256 computed off the main thread, each on its own thread, from one stream of bytes. */
export type StreamHash = StreamDigest<FileDigests>;

function streamDigest(algorithm: Algorithm): StreamDigest<string> {
  const t = hashThread(algorithm);
  const id = nextId++;
  const session: Session = { inFlight: 0, drained: [] };
  t.sessions.set(id, session);
  let ended = false;
  // Chunks are copied into a batch the worker then owns (a socket chunk may share its memory with others).
  // Batches grow from FIRST_BATCH_BYTES: a stream that ends early never holds a buffer much larger than itself.
  let batch: Uint8Array<ArrayBuffer> | null = null;
  let filled = 0;
  let nextBatchBytes = FIRST_BATCH_BYTES;
  const take = (): Uint8Array<ArrayBuffer> | null => {
    if (!batch || filled === 0) return null;
    const out = batch.subarray(0, filled);
    batch = null;
    filled = 0;
    return out;
  };
  return {
    update(chunk) {
      if (ended || t.dead) return;
      session.inFlight += chunk.length;
      for (let at = 0; at < chunk.length; ) {
        if (!batch) {
          batch = new Uint8Array(nextBatchBytes);
          nextBatchBytes = Math.min(BATCH_BYTES, nextBatchBytes * 2);
        }
        const n = Math.min(chunk.length - at, batch.length - filled);
        batch.set(chunk.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === batch.length) {
          const full = take()!;
          t.worker.postMessage({ op: 'update', id, chunk: full }, [full.buffer]);
        }
      }
    },
    congested: () => !t.dead && session.inFlight > MAX_IN_FLIGHT_BYTES,
    whenDrained: () => (t.dead || session.inFlight <= MAX_IN_FLIGHT_BYTES ? Promise.resolve() : new Promise<void>((go) => session.drained.push(go))),
    digest() {
      if (ended || t.dead) return Promise.resolve(null);
      ended = true;
      return new Promise((resolve) => {
        session.digested = resolve;
        const rest = take();
        if (rest) t.worker.postMessage({ op: 'digest', id, chunk: rest }, [rest.buffer]);
        else t.worker.postMessage({ op: 'digest', id });
      });
    },
    drop() {
      if (ended) return;
      ended = true;
      batch = null;
      t.sessions.delete(id);
      if (!t.dead) t.worker.postMessage({ op: 'drop', id });
    },
  };
}

/** Both hashes on the worker threads. */
function threadedHash(): StreamHash {
  const md5 = streamDigest('md5');
  const sha256 = streamDigest('sha256');
  const both = [md5, sha256];
  return {
    update: (chunk) => both.forEach((h) => h.update(chunk)),
    congested: () => both.some((h) => h.congested()),
    whenDrained: () => Promise.all(both.map((h) => h.whenDrained())).then(() => undefined),
    async digest() {
      const [m, s] = await Promise.all([md5.digest(), sha256.digest()]);
      return m !== null && s !== null ? { md5: m, sha256: s } : null;
    },
    drop: () => both.forEach((h) => h.drop()),
  };
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
