// "Try this Template here first": the Local workspace's copy of a remote Template (remote-only storage
// swapped for stored assets, each swap said), and the side-by-side comparison of the two runs. Pure.

import type { AssemblyFile, AssemblyStatus } from './assembly-status';

/** Store robots that write to a server the step names (the remote account's buckets and hosts). */
const REMOTE_STORE = /^\/(s3|minio|wasabi|digitalocean|backblaze|cloudflare|tigris|sftp|ftp|azure|google|dropbox|box|rackspace|swift|vimeo|youtube|wordpress)\/store$/;
/** Imports that read from a server the step names: kept (the data is there), but they need its credentials. */
const REMOTE_IMPORT = /^\/(s3|minio|wasabi|digitalocean|backblaze|cloudflare|tigris|sftp|ftp|azure|google|dropbox|box|swift)\/import$/;

/** What the copy changed, one entry per step (or instruction) it touched, in words an admin reads. */
export interface TrialChange {
  /** The step's name, or null for a change to the Template as a whole (notify_url). */
  step: string | null;
  kind: 'swapped' | 'removed' | 'kept-needs-credentials';
  /** The remote step's robot (or the instruction's name). */
  from: string;
  /** The robot it runs as locally (swapped only). */
  to: string | null;
  reason: string;
}

export interface LocalCopy {
  content: Record<string, unknown>;
  changes: TrialChange[];
}

/** Where a swapped step keeps its files: one folder per Assembly, one per file, so two tries never collide. */
export const TRIAL_STORE_PATH = 'template-trials/${assembly.id}/${unique_prefix}/${file.url_name}';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const credentialsOf = (step: Record<string, unknown>): string | null => (typeof step.credentials === 'string' && step.credentials !== '' ? step.credentials : null);

/**
 * The Local workspace's copy of a remote Template's content. A store step to the remote account's storage
 * becomes /transloadit/store (the local service's stored assets) unless it names Template Credentials the
 * Local workspace has too: a try never writes to the account's buckets with keys written into the step,
 * nor fails for credentials that only the remote has. An import that needs credentials the Local
 * workspace lacks is kept and said to fail. `notify_url` is dropped: the try must not call the remote's
 * webhook. Everything else is copied as it is.
 */
export function localCopyOfTemplate(content: unknown, localCredentials: ReadonlySet<string>): LocalCopy {
  const source = isRecord(content) ? content : {};
  const changes: TrialChange[] = [];
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'notify_url') {
      changes.push({ step: null, kind: 'removed', from: 'notify_url', to: null, reason: 'The try does not notify the remote Template\'s webhook.' });
      continue;
    }
    if (key !== 'steps' || !isRecord(value)) copy[key] = value;
  }
  const steps = isRecord(source.steps) ? source.steps : {};
  const outSteps: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(steps)) {
    if (!isRecord(raw) || typeof raw.robot !== 'string') {
      outSteps[name] = raw;
      continue;
    }
    const credentials = credentialsOf(raw);
    const localHas = credentials !== null && localCredentials.has(credentials);
    if (REMOTE_STORE.test(raw.robot) && !localHas) {
      outSteps[name] = {
        robot: '/transloadit/store',
        ...('use' in raw ? { use: raw.use } : {}),
        ...('result' in raw ? { result: raw.result } : {}),
        path: TRIAL_STORE_PATH,
        conflict_strategy: 'rename',
      };
      const reason =
        credentials !== null
          ? `The Local workspace has no Template Credentials named "${credentials}": the files are kept as this computer's stored assets instead.`
          : 'It writes to the remote account\'s storage with its own keys: the files are kept as this computer\'s stored assets instead.';
      changes.push({ step: name, kind: 'swapped', from: raw.robot, to: '/transloadit/store', reason });
      continue;
    }
    if (REMOTE_IMPORT.test(raw.robot) && credentials !== null && !localHas) {
      changes.push({ step: name, kind: 'kept-needs-credentials', from: raw.robot, to: null, reason: `The Local workspace has no Template Credentials named "${credentials}": this import fails locally until you add them.` });
    }
    outSteps[name] = raw;
  }
  copy.steps = outSteps;
  return { content: copy, changes };
}

/** One run's figures for one step. */
export interface TrialStepSide {
  results: number;
  bytes: number;
  /** Distinct `width×height` of the results, in the order first seen. */
  dimensions: string[];
  /** Sum of the results' media durations (seconds), null when none has one. */
  mediaSeconds: number | null;
  /** The Assembly's error when it failed at this step. */
  error: string | null;
}

export interface TrialStepRow {
  step: string;
  /** The robot each side ran (they differ for a swapped step). */
  remoteRobot: string | null;
  localRobot: string | null;
  remote: TrialStepSide | null;
  local: TrialStepSide | null;
}

const sideOf = (files: readonly AssemblyFile[] | undefined, error: string | null): TrialStepSide => {
  const list = files ?? [];
  const dimensions: string[] = [];
  let seconds: number | null = null;
  for (const f of list) {
    const w = f.meta?.width;
    const h = f.meta?.height;
    if (typeof w === 'number' && typeof h === 'number') {
      const d = `${w}×${h}`;
      if (!dimensions.includes(d)) dimensions.push(d);
    }
    const dur = f.meta?.duration;
    if (typeof dur === 'number' && Number.isFinite(dur)) seconds = (seconds ?? 0) + dur;
  }
  return { results: list.length, bytes: list.reduce((n, f) => n + (typeof f.size === 'number' ? f.size : 0), 0), dimensions, mediaSeconds: seconds, error };
};

const stepError = (status: AssemblyStatus | null, step: string): string | null => {
  if (!status?.error || status.step !== step) return null;
  return status.message ? `${status.error}: ${status.message}` : status.error;
};

const robotsOf = (content: unknown): Map<string, string> => {
  const steps = isRecord(content) && isRecord(content.steps) ? content.steps : {};
  return new Map(Object.entries(steps).flatMap(([name, s]) => (isRecord(s) && typeof s.robot === 'string' ? [[name, s.robot] as const] : [])));
};

/**
 * Per step, what each run gave: result count, bytes, dimensions, media duration and the error at that
 * step. A step is listed once either run has results or its error for it, in the remote Template's
 * order, then any the results name that it does not.
 * A side whose run has no status yet (still uploading, or refused) is null for every step.
 */
export function compareTrialRuns(input: {
  remoteContent: unknown;
  localContent: unknown;
  remote: AssemblyStatus | null;
  local: AssemblyStatus | null;
}): TrialStepRow[] {
  const remoteRobots = robotsOf(input.remoteContent);
  const localRobots = robotsOf(input.localContent);
  // A step shows once either run has results or an error for it (intermediate steps report none).
  const shown = new Set<string>();
  for (const status of [input.remote, input.local]) {
    for (const name of Object.keys(status?.results ?? {})) shown.add(name);
    if (status?.error && status.step) shown.add(status.step);
  }
  const names = [...[...remoteRobots.keys()].filter((n) => shown.has(n)), ...[...shown].filter((n) => !remoteRobots.has(n))];
  return names.map((step) => ({
    step,
    remoteRobot: remoteRobots.get(step) ?? null,
    localRobot: localRobots.get(step) ?? null,
    remote: input.remote ? sideOf(input.remote.results?.[step], stepError(input.remote, step)) : null,
    local: input.local ? sideOf(input.local.results?.[step], stepError(input.local, step)) : null,
  }));
}
