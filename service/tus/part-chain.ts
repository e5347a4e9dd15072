// The md5 and sha256 of a file sent as partial uploads (tus concatenation), computed while the parts arrive
// instead of after the last one: the joined file's hash is the parts' bytes in the final upload's order, so
// per Assembly one running hash follows the parts in the order they will most likely be named (the offset a
// part carries in its metadata, `part_offset`, else the order parts were created in), reading from disk what
// each part has received so far (bytes below a part's offset never change: tus only appends). A part not
// yet contiguous waits until those before it are complete. When the final upload names the parts, the hash
// goes on if what it covered is a prefix of that order; otherwise (a guess that was wrong, a restart that
// lost the running state, a part removed) it starts again from disk in the named order. Either way every
// byte is hashed in the final order: never a wrong digest, at worst the old cost.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolveInside } from '../files/inside-dir';
import { streamHash, type FileDigests, type StreamHash } from '../files/stream-hash';

/** The metadata key of a partial upload that says where its bytes go in the whole file (decimal bytes). */
export const PART_OFFSET_META = 'part_offset';

/** Chains kept at most (an abandoned Assembly's parts never get a final upload); the oldest is dropped. */
const MAX_CHAINS = 256;

const READ_CHUNK = 1024 * 1024;

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

/** Feeds `hash` with bytes [from, to) of a file, waiting when the hash falls behind. */
async function hashRange(hash: StreamHash, path: string, from: number, to: number): Promise<void> {
  if (to <= from) return;
  for await (const chunk of createReadStream(path, { start: from, end: to - 1, highWaterMark: READ_CHUNK })) {
    hash.update(chunk as Buffer);
    if (hash.congested()) await hash.whenDrained();
  }
}

export class PartChains {
  private readonly chains = new Map<string, Chain>();
  private seq = 0;

  constructor(
    private readonly directory: string,
    private readonly source: PartInfoSource,
  ) {}

  private fresh(): Chain {
    return { hash: streamHash(), parts: new Map(), done: [], doneBytes: 0, current: null, hashed: 0, forced: null, broken: false, running: null, again: false };
  }

  private chainOf(assemblyId: string): Chain {
    let c = this.chains.get(assemblyId);
    if (!c) {
      c = this.fresh();
      this.chains.set(assemblyId, c);
      if (this.chains.size > MAX_CHAINS) {
        const [oldest, chain] = this.chains.entries().next().value as [string, Chain];
        chain.hash.drop();
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
    c.parts.delete(id);
    if (c.done.includes(id) || c.current === id) c.broken = true;
  }

  /** Forget an Assembly's chain (it ended). */
  forget(assemblyId: string): void {
    this.chains.get(assemblyId)?.hash.drop();
    this.chains.delete(assemblyId);
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
        await hashRange(c.hash, path, c.hashed, onDisk);
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
   * The md5 and sha256 of the parts `ids` joined in this order (all complete, held by the caller so none
   * changes): the running hash finished where it followed this order, else computed again from disk.
   * Null when a part could not be read. The chain is forgotten.
   */
  async digestOf(assemblyId: string, parts: readonly { id: string; size: number }[]): Promise<FileDigests | null> {
    // Taken out of the map: nothing else reaches it while it finishes.
    let c = this.chains.get(assemblyId);
    this.chains.delete(assemblyId);
    while (c?.running) await c.running;
    const ids = parts.map((p) => p.id);
    const followed = c ? [...c.done, ...(c.current && c.hashed > 0 ? [c.current] : [])] : [];
    if (!c || c.broken || followed.some((id, i) => ids[i] !== id) || parts.some((p) => c!.parts.get(p.id)?.size !== p.size && followed.includes(p.id))) {
      c?.hash.drop();
      c = this.fresh();
    }
    for (const p of parts) c.parts.set(p.id, { id: p.id, size: p.size, hint: null, seq: this.seq++ });
    if (c.hashed === 0) c.current = null;
    c.forced = ids;
    do await this.poke(c);
    while (c.running);
    if (c.broken || c.done.length !== ids.length) {
      c.hash.drop();
      return null;
    }
    return c.hash.digest();
  }
}
