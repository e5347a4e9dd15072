// One real local service (a child process, see service-process.ts) in a sandbox, plus the bookkeeping the
// fuzzers share: every request gets a deadline and is checked against the invariant, every case ends with
// a sandbox check, a hung service is killed and restarted on the same data dir (so shrinking can go on).
// `strict` (the tests) throws on the first violation so fast-check shrinks it; otherwise (bench/fuzz-long.ts)
// violations are counted and the run goes on.
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { signParams } from '../auth/signature';
import { answerViolation, type Answer, type Violation, type ViolationKind } from './answer-check';
import { createSandbox, type Sandbox } from './sandbox';
import { startServiceProcess, type ServiceProcess } from './service-process';

export interface FuzzStats {
  cases: number;
  requests: number;
  violations: Record<ViolationKind, number>;
  restarts: number;
  /** The first few violations, with the request that caused them. */
  examples: string[];
}

export interface FuzzTargetOptions {
  strict: boolean;
  /** Per request; a slower answer counts as a hang. */
  deadlineMs?: number;
  /** How long a created Assembly may take to reach an end state. */
  endDeadlineMs?: number;
  requireSignature?: boolean;
}

export class FuzzViolation extends Error {}

/** Cases per property: ASSEMBLYLINE_FUZZ_RUNS, else `fallback` (kept small for `npm test`). */
export function fuzzRuns(fallback = 100): number {
  const n = Number(process.env.ASSEMBLYLINE_FUZZ_RUNS);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');

export class FuzzTarget {
  readonly stats: FuzzStats = { cases: 0, requests: 0, violations: { 'server-error': 0, hang: 0, 'no-error-code': 0, connection: 0, 'write-outside': 0, orphan: 0 }, restarts: 0, examples: [] };
  readonly authKey = randomBytes(16).toString('hex');
  readonly authSecret = randomBytes(20).toString('hex');
  private caseViolations: Violation[] = [];
  /** Assemblies the service said it created during the current case (their folders are expected). */
  private caseAssemblies = new Set<string>();
  private caseLabel = '';

  private constructor(
    readonly sandbox: Sandbox,
    private service: ServiceProcess,
    private readonly o: Required<Omit<FuzzTargetOptions, 'requireSignature'>> & { requireSignature: boolean },
  ) {}

  static async start(options: FuzzTargetOptions): Promise<FuzzTarget> {
    const sandbox = await createSandbox();
    // Answers normally take milliseconds; the tests keep the deadline short so shrinking a hang stays quick.
    const o = { deadlineMs: options.strict ? 8_000 : 15_000, endDeadlineMs: 30_000, requireSignature: false, ...options };
    const t = new FuzzTarget(sandbox, null as unknown as ServiceProcess, o);
    t.service = await t.spawn();
    return t;
  }

  get url(): string {
    return this.service.url;
  }

  private spawn(): Promise<ServiceProcess> {
    return startServiceProcess({ dataDir: this.sandbox.dataDir, authKey: this.authKey, authSecret: this.authSecret, requireSignature: this.o.requireSignature });
  }

  /** A fresh service on the same data dir, after a hang or a death. */
  private async restart(): Promise<void> {
    this.stats.restarts++;
    await this.service.kill();
    this.service = await this.spawn();
  }

  /** `auth` with the real key and an expiry an hour ahead, merged with `extra`. */
  authBlock(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { key: this.authKey, expires: new Date(Date.now() + 3600_000).toISOString(), ...extra };
  }

  sign(rawParams: string): string {
    return signParams(rawParams, this.authSecret);
  }

  private note(v: Violation): void {
    this.caseViolations.push(v);
    this.stats.violations[v.kind]++;
    if (this.stats.examples.length < 20) this.stats.examples.push(`${v.kind}: ${v.detail} ← ${this.caseLabel.slice(0, 400)}`);
  }

  /** Sends one request (path relative to the service) with the deadline, checks the answer, returns it. */
  async request(path: string, init: RequestInit = {}): Promise<Answer & { json: Record<string, unknown> | null; headers: Headers }> {
    this.stats.requests++;
    const started = Date.now();
    let answer: Answer;
    let headers = new Headers();
    try {
      const res = await fetch(new URL(path, this.url), { ...init, signal: AbortSignal.timeout(this.o.deadlineMs) });
      const text = await res.text();
      headers = res.headers;
      answer = { status: res.status, text, ms: Date.now() - started, hung: false, failure: null, bodyless: init.method === 'HEAD' };
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      const hung = err.name === 'TimeoutError' || err.name === 'AbortError';
      answer = { status: 0, text: '', ms: Date.now() - started, hung, failure: hung ? null : `${err.message} ${err.cause?.code ?? ''}`.trim(), bodyless: false };
    }
    const v = answerViolation(answer);
    if (v) this.note(v);
    if (answer.hung || answer.failure) {
      // A refused or reset connection usually means the process is dying: give its exit a moment to land.
      if (answer.failure) await Promise.race([this.service.exited, new Promise((r) => setTimeout(r, 1000))]);
      if (this.service.dead()) this.noteDeath();
      await this.restart();
    }
    let json: Record<string, unknown> | null = null;
    try {
      json = JSON.parse(answer.text) as Record<string, unknown>;
    } catch {
      json = null;
    }
    if (answer.status === 200 && typeof json?.assembly_id === 'string') this.caseAssemblies.add(json.assembly_id);
    return { ...answer, json, headers };
  }

  /** Polls an Assembly until it leaves UPLOADING/EXECUTING; one that never does is a hang. */
  async waitForEnd(assemblyId: string): Promise<Record<string, unknown> | null> {
    const until = Date.now() + this.o.endDeadlineMs;
    for (;;) {
      const a = await this.request(`/assemblies/${assemblyId}`);
      const body = a.json;
      if (!body || a.status !== 200) return body;
      if (body.error || (body.ok !== 'ASSEMBLY_UPLOADING' && body.ok !== 'ASSEMBLY_EXECUTING')) return body;
      if (Date.now() > until) {
        this.note({ kind: 'hang', detail: `Assembly ${assemblyId} still ${String(body.ok)} after ${this.o.endDeadlineMs} ms` });
        return body;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private noteDeath(): void {
    const tail = this.service.output().trim().split('\n').slice(-6).join(' | ');
    this.note({ kind: 'connection', detail: `the service process died: ${tail}` });
  }

  /** One fuzz case: runs `body`, then checks the sandbox; in strict mode throws what went wrong. */
  async runCase(label: string, body: () => Promise<void>): Promise<void> {
    this.stats.cases++;
    this.caseViolations = [];
    this.caseAssemblies = new Set();
    this.caseLabel = label;
    const assembliesDir = join(this.sandbox.dataDir, 'assemblies');
    const before = new Set(await readdir(assembliesDir).catch(() => []));
    try {
      await body();
    } catch (e) {
      // The harness itself failed (e.g. a restart that did not come up): a finding, never a stop of the long run.
      if (this.o.strict) throw e;
      this.note({ kind: 'connection', detail: `harness: ${(e as Error).message}` });
      if (this.service.dead()) await this.restart().catch(() => undefined);
    }
    // A robot may kill the service after the last answer of the case: blame this case, not the next.
    await new Promise((r) => setTimeout(r, 0));
    if (this.service.dead()) {
      this.noteDeath();
      await this.restart();
    }
    for (const p of await this.sandbox.check(this.stats.cases % 50 === 0)) this.note({ kind: 'write-outside', detail: p });
    // A refused request leaves nothing behind: every new Assembly folder belongs to an Assembly it accepted.
    for (const dir of await readdir(assembliesDir).catch(() => [])) {
      if (!before.has(dir) && !this.caseAssemblies.has(dir)) this.note({ kind: 'orphan', detail: `assemblies/${dir} left on disk by a refused request` });
    }
    if (this.o.strict && this.caseViolations.length > 0) {
      throw new FuzzViolation(this.caseViolations.map((v) => `${v.kind}: ${v.detail}`).join('\n'));
    }
  }

  /** Stops the service and checks the sandbox a last time (full database check); returns the problems. */
  async close(): Promise<string[]> {
    await this.service.stop();
    const problems = await this.sandbox.check(true);
    await this.sandbox.remove();
    return problems;
  }
}

/** A multipart body: `params` (raw), optional signature and extra fields, then files. */
export function multipart(rawParams: string, o: { signature?: string; fields?: Record<string, string>; files?: { name: string; data: Uint8Array; field?: string }[] } = {}): FormData {
  const fd = new FormData();
  fd.set('params', rawParams);
  for (const [k, v] of Object.entries(o.fields ?? {})) fd.set(k, v);
  if (o.signature !== undefined) fd.set('signature', o.signature);
  for (const f of o.files ?? []) fd.append(f.field ?? 'file', new Blob([new Uint8Array(f.data)]), f.name);
  return fd;
}
