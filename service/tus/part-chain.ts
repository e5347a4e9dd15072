// The md5 and sha256 of a file sent as partial uploads (tus concatenation), computed while the parts arrive
// instead of after the last one: the joined file's hash is the parts' bytes in the final upload's order, so
// per Assembly one running hash follows the parts in the order they will most likely be named (the offset a
// part carries in its metadata, `part_offset`, else the order parts were created in), reading from disk what
// each part has received so far (bytes below a part's offset never change: tus only appends). A part not
// yet contiguous waits until those before it are complete. When the final upload names the parts, the hash
// goes on if what it covered is a prefix of that order; otherwise (a guess that was wrong, a restart that
// lost the running state, a part removed) it starts again from disk in the named order. Either way every
// byte is hashed in the final order: never a wrong digest, at worst the old cost.
//
// The bytes the chain reads are also written, in order, to the file that becomes the final upload's
// (renamed at the final POST), so the join copies nothing after the last part: the parts' bytes are read
// and written once more while the link is still busy, not after it.

import { randomBytes } from 'node:crypto';
import { open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { resolveInside } from '../files/inside-dir';
import { streamHash, type FileDigests, type StreamHash } from '../files/stream-hash';

/** The metadata key of a partial upload that says where its bytes go in the whole file (decimal bytes). */
export const PART_OFFSET_META = 'part_offset';

/** Chains kept at most (an abandoned Assembly's parts never get a final upload); the oldest is dropped. */
const MAX_CHAINS = 256;

const READ_CHUNK = 1024 * 1024;

/** The joined file a chain writes: `<assembly_id>_join_<32hex>`, never an upload id. */
const JOIN_FILE = /^[0-9a-f]{32}_join_[0-9a-f]{32}$/;

interface Part {
  id: string;
  size: number;
  /** Where the client said the part goes (its metadata's part_offset), or null. */
  hint: number | null;
  /** Creation order among the Assembly's parts. */
  seq: number;
}

interface Chain {
  hash: StreamHash;
  parts: Map<string, Part>;
  /** Parts hashed whole, in order. */
  done: string[];
  /** Bytes of the parts in `done`. */
  doneBytes: number;
  /** The part being followed and how much of it is hashed (0 when none is). */
  current: string | null;
  hashed: number;
  /** The final upload's order, once named. */
  forced: string[] | null;
  broken: boolean;
  /** The parts' bytes in the chain's order so far, written as they are hashed. */
  joinedPath: string;
  joined: FileHandle | null;
  running: Promise<void> | null;
  again: boolean;
}

/** What the chains need of the store: a part's size and metadata (null when it is gone). */
export interface PartInfoSource {
  partInfo(id: string): Promise<{ size: number; metadata: Record<string, string | null> } | null>;
}

/** Hint of a metadata record: a non-negative safe integer, else null. Pure. */
export function partOffsetOf(metadata: Record<string, string | null> | undefined): number | null {
  const v = metadata?.[PART_OFFSET_META];
  return typeof v === 'string' && /^(0|[1-9]\d{0,15})$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : null;
}

/** Which part comes next after `doneBytes` bytes, among those not done: the hinted one there, else the oldest unhinted. Pure. */
export function nextPartOf(candidates: readonly Part[], doneBytes: number): Part | null {
  const there = candidates.find((p) => p.hint === doneBytes);
  if (there) return there;
  let oldest: Part | null = null;
  for (const p of candidates) if (p.hint === null && (!oldest || p.seq < oldest.seq)) oldest = p;
  return oldest;
}

/** Feeds `hash` with bytes [from, to) of a file and writes them to `out` at `at`, waiting when the hash falls behind. */
async function copyHashed(hash: StreamHash, path: string, from: number, to: number, out: FileHandle, at: number): Promise<void> {
  if (to <= from) return;
  const f = await open(path, 'r');
  try {
    // One buffer for the whole range: the hash copies what it keeps, the write is done before the next read.
    const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, to - from));
    for (let pos = from; pos < to; ) {
      const { bytesRead } = await f.read(buf, 0, Math.min(buf.length, to - pos), pos);
      if (bytesRead === 0) throw new Error(`${path} ended at ${pos}`);
      const chunk = buf.subarray(0, bytesRead);
      hash.update(chunk);
      for (let w = 0; w < bytesRead; ) w += (await out.write(chunk, w, bytesRead - w, at + pos - from + w)).bytesWritten;
      pos += bytesRead;
      if (hash.congested()) await hash.whenDrained();
    }
  } finally {
    await f.close();
  }
}

/** Removes joined files a stopped service left (no chain survives a restart). */
export async function removeStaleJoins(directory: string): Promise<void> {
  const names = await readdir(directory).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => JOIN_FILE.test(n)).map((n) => unlink(resolveInside(directory, n)).catch(() => undefined)));
}

export class PartChains {
  private readonly chains = new Map<string, Chain>();
  private seq = 0;

  constructor(
    private readonly directory: string,
    private readonly source: PartInfoSource,
  ) {}

  private fresh(assemblyId: string): Chain {
    const joinedPath = resolveInside(this.directory, `${assemblyId}_join_${randomBytes(16).toString('hex')}`);
    return { hash: streamHash(), parts: new Map(), done: [], doneBytes: 0, current: null, hashed: 0, forced: null, broken: false, joinedPath, joined: null, running: null, again: false };
  }

  /** Ends a chain that will not be used: its hash and its joined file. */
  private discard(c: Chain): Promise<void> {
    c.hash.drop();
    return (async () => {
      while (c.running) await c.running;
      await c.joined?.close().catch(() => undefined);
      c.joined = null;
      await unlink(c.joinedPath).catch(() => undefined);
    })();
  }

  private chainOf(assemblyId: string): Chain {
    let c = this.chains.get(assemblyId);
    if (!c) {
      c = this.fresh(assemblyId);
      this.chains.set(assemblyId, c);
      if (this.chains.size > MAX_CHAINS) {
        const [oldest, chain] = this.chains.entries().next().value as [string, Chain];
        chain.broken = true;
        void this.discard(chain);
        this.chains.delete(oldest);
      }
    }
    return c;
  }

  /** A part was created: it joins its Assembly's chain (in creation order). */
  created(assemblyId: string, id: string, size: number, metadata: Record<string, string | null> | undefined): void {
    const c = this.chainOf(assemblyId);
    if (!c.parts.has(id)) c.parts.set(id, { id, size, hint: partOffsetOf(metadata), seq: this.seq++ });
    void this.poke(c);
  }

  /** A part received bytes (or a PATCH on it ended): the chain reads on if it waits for them. */
  wrote(assemblyId: string, id: string): void {
    const c = this.chains.get(assemblyId);
    if (c?.parts.has(id)) {
      void this.poke(c);
      return;
    }
    // A restart lost the chain: learn the part again (it is followed once the parts before it are known).
    void this.source
      .partInfo(id)
      .then((info) => {
        if (info) this.created(assemblyId, id, info.size, info.metadata);
      })
      .catch(() => undefined);
  }

  /** A part was removed (terminated): a chain that read it cannot be used. */
  removed(assemblyId: string, id: string): void {
    const c = this.chains.get(assemblyId);
    if (!c?.parts.has(id)) return;
    if (c.done.includes(id) || c.current === id) this.forget(assemblyId);
    else c.parts.delete(id);
  }

  /** Forget an Assembly's chain (it ended). */
  forget(assemblyId: string): void {
    const c = this.chains.get(assemblyId);
    this.chains.delete(assemblyId);
    if (c) {
      c.broken = true;
      void this.discard(c);
    }
  }

  private poke(c: Chain): Promise<void> {
    c.again = true;
    if (!c.running) {
      c.running = this.follow(c).finally(() => {
        c.running = null;
        if (c.again) void this.poke(c);
      });
    }
    return c.running;
  }

  private async follow(c: Chain): Promise<void> {
    while (c.again && !c.broken) {
      c.again = false;
      try {
        await this.advance(c);
      } catch {
        c.broken = true;
      }
    }
  }

  /** Hashes what is on disk of the next parts, in order, until one is incomplete or none is known. */
  private async advance(c: Chain): Promise<void> {
    for (;;) {
      let part: Part | null;
      if (c.current) part = c.parts.get(c.current) ?? null;
      else if (c.forced) {
        const id = c.forced[c.done.length];
        part = id !== undefined ? (c.parts.get(id) ?? null) : null;
      } else part = nextPartOf([...c.parts.values()].filter((p) => !c.done.includes(p.id)), c.doneBytes);
      if (!part) return;
      c.current = part.id;
      const path = resolveInside(this.directory, part.id);
      const onDisk = Math.min(part.size, (await stat(path)).size);
      if (onDisk > c.hashed) {
        c.joined ??= await open(c.joinedPath, 'w');
        await copyHashed(c.hash, path, c.hashed, onDisk, c.joined, c.doneBytes + c.hashed);
        c.hashed = onDisk;
      }
      if (c.hashed < part.size) return;
      c.done.push(part.id);
      c.doneBytes += part.size;
      c.current = null;
      c.hashed = 0;
    }
  }

  /**
   * Makes `finalPath` the parts `ids` joined in this order (all complete, held by the caller so none
   * changes) and gives their md5 and sha256: the running chain finished where it followed this order, else
   * one made again from disk. Null when a part could not be read or written (the parts are left as they
   * were). The chain is forgotten.
   */
  async join(assemblyId: string, parts: readonly { id: string; size: number }[], finalPath: string): Promise<FileDigests | null> {
    // Taken out of the map: nothing else reaches it while it finishes.
    let c = this.chains.get(assemblyId);
    this.chains.delete(assemblyId);
    while (c?.running) await c.running;
    const ids = parts.map((p) => p.id);
    const followed = c ? [...c.done, ...(c.current && c.hashed > 0 ? [c.current] : [])] : [];
    if (!c || c.broken || followed.some((id, i) => ids[i] !== id) || parts.some((p) => c!.parts.get(p.id)?.size !== p.size && followed.includes(p.id))) {
      if (c) await this.discard(c);
      c = this.fresh(assemblyId);
    }
    for (const p of parts) c.parts.set(p.id, { id: p.id, size: p.size, hint: null, seq: this.seq++ });
    if (c.hashed === 0) c.current = null;
    c.forced = ids;
    do await this.poke(c);
    while (c.running);
    const size = parts.reduce((n, p) => n + p.size, 0);
    try {
      if (c.broken || c.done.length !== ids.length) throw new Error('not joined');
      c.joined ??= await open(c.joinedPath, 'w');
      const written = (await c.joined.stat()).size;
      await c.joined.close();
      if (written !== size) throw new Error(`joined ${written} of ${size} bytes`);
      c.joined = null;
      await rename(c.joinedPath, finalPath);
    } catch {
      c.broken = true;
      await this.discard(c);
      return null;
    }
    return c.hash.digest();
  }
}
