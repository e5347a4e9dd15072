import path from 'node:path';

/**
 * The files of one draft in columns (one array per field, no object per file), so 100 000 files cost a
 * few megabytes. Rows keep the order they were found in; ids only grow, so a row is found by binary
 * search, and removal compacts the columns in one pass.
 */

export interface ListedRoot {
  readonly handle: string;
  /** The root's parent on disk: a file's path is `${base}/${diskRelativePath}`. */
  readonly base: string;
}

export interface DraftListFile {
  readonly id: number;
  readonly root: ListedRoot;
  /** From the root's parent, as on disk. */
  readonly diskRelativePath: string;
  /** As the user sees it (differs only where the browser host shortened a name on disk). */
  readonly relativePath: string;
  readonly size: number;
  readonly mtimeMs: number;
}

export class DraftList {
  private readonly roots: ListedRoot[] = [];
  private readonly rootIndex = new Map<ListedRoot, number>();
  private ids: number[] = [];
  private rootOf: number[] = [];
  private diskRel: string[] = [];
  /** id → user's relative path, only where it differs from the one on disk. */
  private readonly shown = new Map<number, string>();
  private sizes: number[] = [];
  private mtimes: number[] = [];
  /**
   * A file dropped twice is counted, not added. Keyed by a 53-bit hash of its path (a number costs far less
   * than a second copy of 100,000 path strings); a hit is confirmed against the row's own path, and the
   * rare different path with the same hash goes to `collided`.
   */
  private byHash = new Map<number, number>();
  private readonly collided = new Set<string>();
  private nextId = 1;
  bytes = 0;
  duplicates = 0;
  readonly skips: { relativePath: string; reason: string }[] = [];
  /** Walks still appending to this list. */
  walks = 0;
  /** Bumps on every change. */
  version = 0;
  private waiters: (() => void)[] = [];

  /** `hash` is replaceable so a test can make every path collide. */
  constructor(private readonly hash: (text: string) => number = hashOf) {}

  get length(): number {
    return this.ids.length;
  }

  /** Adds a file; false when the same path is already here (counted as a duplicate). */
  add(root: ListedRoot, diskRelativePath: string, relativePath: string, size: number, mtimeMs: number): boolean {
    const absolutePath = path.join(root.base, diskRelativePath);
    const hash = this.hash(absolutePath);
    const seen = this.byHash.get(hash);
    if ((seen !== undefined && this.pathOf(this.at(seen)) === absolutePath) || this.collided.has(absolutePath)) {
      this.duplicates += 1;
      this.changed();
      return false;
    }
    if (seen === undefined) this.byHash.set(hash, this.ids.length);
    else this.collided.add(absolutePath);
    let r = this.rootIndex.get(root);
    if (r === undefined) {
      r = this.roots.push(root) - 1;
      this.rootIndex.set(root, r);
    }
    const id = this.nextId++;
    this.ids.push(id);
    this.rootOf.push(r);
    this.diskRel.push(diskRelativePath);
    if (relativePath !== diskRelativePath) this.shown.set(id, relativePath);
    this.sizes.push(size);
    this.mtimes.push(mtimeMs);
    this.bytes += size;
    this.changed();
    return true;
  }

  skip(relativePath: string, reason: string): void {
    this.skips.push({ relativePath, reason });
    this.changed();
  }

  at(index: number): DraftListFile {
    const id = this.ids[index] as number;
    const diskRelativePath = this.diskRel[index] as string;
    return {
      id,
      root: this.roots[this.rootOf[index] as number] as ListedRoot,
      diskRelativePath,
      relativePath: this.shown.get(id) ?? diskRelativePath,
      size: this.sizes[index] as number,
      mtimeMs: this.mtimes[index] as number,
    };
  }

  /** Path and size of every file in order, without building a record per file (the plan reads 100 000 of them). */
  forEach(visit: (relativePath: string, size: number, index: number) => void): void {
    const shown = this.shown;
    for (let i = 0; i < this.ids.length; i += 1) {
      const rel = shown.size === 0 ? (this.diskRel[i] as string) : (shown.get(this.ids[i] as number) ?? (this.diskRel[i] as string));
      visit(rel, this.sizes[i] as number, i);
    }
  }

  pathOf(file: DraftListFile): string {
    return path.join(file.root.base, file.diskRelativePath);
  }

  /** Removes the rows with these ids; returns how many were here. */
  remove(ids: ReadonlySet<number>): number {
    let removed = 0;
    let w = 0;
    for (let i = 0; i < this.ids.length; i += 1) {
      const id = this.ids[i] as number;
      if (ids.has(id)) {
        removed += 1;
        this.bytes -= this.sizes[i] as number;
        this.collided.delete(this.pathOf(this.at(i)));
        this.shown.delete(id);
        continue;
      }
      if (w !== i) {
        this.ids[w] = id;
        this.rootOf[w] = this.rootOf[i] as number;
        this.diskRel[w] = this.diskRel[i] as string;
        this.sizes[w] = this.sizes[i] as number;
        this.mtimes[w] = this.mtimes[i] as number;
      }
      w += 1;
    }
    for (const column of [this.ids, this.rootOf, this.diskRel, this.sizes, this.mtimes]) column.length = w;
    if (removed > 0) {
      // Rows moved: index them again (a path in `collided` whose first holder left is indexed by hash now).
      this.byHash = new Map();
      for (let i = 0; i < w; i += 1) {
        const key = this.pathOf(this.at(i));
        const hash = this.hash(key);
        if (!this.byHash.has(hash)) {
          this.byHash.set(hash, i);
          this.collided.delete(key);
        } else if (this.pathOf(this.at(this.byHash.get(hash) as number)) !== key) this.collided.add(key);
      }
      this.changed();
    }
    return removed;
  }

  /** Resolves at the next change (a file, a skip, a walk's end): how a reader waits for a walk. */
  nextChange(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  changed(): void {
    this.version += 1;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** cyrb53: a fast 53-bit string hash (public domain), enough to tell 100,000 paths apart almost always. */
export function hashOf(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
