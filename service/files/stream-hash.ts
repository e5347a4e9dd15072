// md5 and sha256 of an upload computed in one pass while its bytes stream to disk, so recording the upload
// never reads the file again. The hashing runs on a worker thread: on the main thread it cost as much CPU as receiving the
// bytes (md5 runs at ~600 MB/s on one core), so an upload went no faster than the hash. Chunks are copied
// to the worker (a memcpy, far cheaper than the hash) with backpressure: a stream that runs ahead of the
// worker by more than MAX_IN_FLIGHT_BYTES waits. A running hash cannot be persisted in Node, so after a
// restart (or a PATCH that failed midway) the prefix already on disk is hashed once, then streaming goes on.

import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { Worker } from 'node:worker_threads';

/** Lowercase hex digests of a file's bytes. */
export interface FileDigests {
  md5: string;
  sha256: string;
}

/** Bytes sent to the worker and not yet hashed, per hash, before its stream waits. */
const MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;
/** The worker reports progress after this many bytes of one hash. */
const ACK_EVERY_BYTES = 4 * 1024 * 1024;
/** Chunks are gathered into messages of this size: a message per 64 KiB socket chunk cost more than the copy. */
const BATCH_BYTES = 1024 * 1024;

// CommonJS source for `eval`: no file to resolve, whatever loader the service runs under.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', (m) => {
  if (m.op === 'update' || (m.op === 'digest' && m.chunk)) {
    let h = hashes.get(m.id);
    if (!h) { h = { md5: createHash('md5'), sha256: createHash('sha256'), unacked: 0 }; hashes.set(m.id, h); }
    h.md5.update(m.chunk);
    h.sha256.update(m.chunk);
    h.unacked += m.chunk.byteLength;
    if (m.op === 'update' && h.unacked >= ${String(ACK_EVERY_BYTES)}) { parentPort.postMessage({ id: m.id, hashed: h.unacked }); h.unacked = 0; }
  }
  if (m.op === 'digest') {
    const h = hashes.get(m.id);
    hashes.delete(m.id);
    parentPort.postMessage({ id: m.id, hashed: h ? h.unacked : 0, hex: {
      md5: (h ? h.md5 : createHash('md5')).digest('hex'),
      sha256: (h ? h.sha256 : createHash('sha256')).digest('hex'),
    } });
  } else if (m.op === 'drop') {
    hashes.delete(m.id);
  }
});`;

interface Session {
  inFlight: number;
  drained: (() => void)[];
  digested?: (hex: FileDigests | null) => void;
}

interface HashThread {
  worker: Worker;
  sessions: Map<number, Session>;
  dead: boolean;
}

let thread: HashThread | null = null;
let nextId = 1;

function settleAll(t: HashThread): void {
  t.dead = true;
  for (const s of t.sessions.values()) {
    s.digested?.(null);
    for (const go of s.drained.splice(0)) go();
  }
  t.sessions.clear();
  if (thread === t) thread = null;
}

/** The shared hashing thread, started on first use; it never keeps the process alive. */
function hashThread(): HashThread {
  if (thread) return thread;
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  const t: HashThread = { worker, sessions: new Map(), dead: false };
  worker.unref();
  worker.on('message', (m: { id: number; hashed: number; hex?: FileDigests }) => {
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
  worker.on('error', () => settleAll(t));
  worker.on('exit', () => settleAll(t));
  thread = t;
  return t;
}

/** md5 and sha256 computed off the main thread, in one pass over the bytes. */
export interface StreamHash {
  update(chunk: Buffer): void;
  /** True when the caller should wait (whenDrained) before sending more. */
  congested(): boolean;
  whenDrained(): Promise<void>;
  /** The hex digests; null when the hashing thread failed. Ends the hash. */
  digest(): Promise<FileDigests | null>;
  /** Ends the hash without a digest. */
  drop(): void;
}

export function streamHash(): StreamHash {
  const t = hashThread();
  const id = nextId++;
  const session: Session = { inFlight: 0, drained: [] };
  t.sessions.set(id, session);
  let ended = false;
  // Chunks are copied into a batch the worker then owns (a socket chunk may share its memory with others).
  let batch: Uint8Array<ArrayBuffer> | null = null;
  let filled = 0;
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
        batch ??= new Uint8Array(BATCH_BYTES);
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

/** A hash fed with the first `length` bytes of a file (a resumed upload's prefix), to be continued. */
export async function hashPrefix(localPath: string, length: number): Promise<StreamHash> {
  const md5 = streamHash();
  if (length <= 0) return md5;
  const input = createReadStream(localPath, { start: 0, end: length - 1, highWaterMark: 1024 * 1024 });
  for await (const chunk of input) {
    md5.update(chunk as Buffer);
    if (md5.congested()) await md5.whenDrained();
  }
  return md5;
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

/** A pass-through that feeds `md5` with every chunk on its way to disk (waiting when the hash falls behind). */
export function hashTap(md5: StreamHash, o: HashTapOptions = {}): HashTap {
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
      md5.update(out);
      o.onBytes?.(seen);
      if (!md5.congested()) return cb(null, out);
      void md5.whenDrained().then(() => cb(null, out));
    },
  });
  return { transform, bytes: () => seen, head: () => Buffer.concat(head) };
}
