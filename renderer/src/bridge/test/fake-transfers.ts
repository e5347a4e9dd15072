import type { PickedFile } from '../../../../shared/ipc/bridge';
import type { ChannelRequest, ChannelResponse, EventName, EventPayload } from '../../../../shared/ipc/contract';
import {
  currentFromTotals,
  DEFAULT_TRANSFER_SETTINGS,
  type DraftRow,
  type DraftSkip,
  type DraftSummary,
  type Transfer,
  type TransferBatch,
  type TransferFileState,
  type TransferPlan,
  type TransferRow,
  type TransferSettings,
  type TransferTotals,
} from '../../../../shared/ipc/transfer-models';
import { ok, type Result } from '../../../../shared/result';

/**
 * core's draft and transfer queue, in memory, for renderer unit tests ONLY: the draft expands a picked
 * root into the files picked under it, the queue batches them by the settings and answers paged,
 * filtered queries the way electron/core/transfers does. Tests move rows with `setRows` and announce the
 * change with `emitChanges`, as core's coalesced events would.
 */

type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;
type Answer<C extends keyof Handlers> = Result<ChannelResponse<C>>;
interface Handlers {
  'drafts:add': never;
  'drafts:get': never;
  'drafts:rows': never;
  'drafts:skipped': never;
  'drafts:remove': never;
  'drafts:clear': never;
  'drafts:plan': never;
  'transfers:start': never;
  'transfers:overview': never;
  'transfers:rows': never;
  'transfers:control': never;
  'transfers:clearFinished': never;
  'transfers:settings': never;
  'transfers:saveSettings': never;
}

const HIDDEN = /(^|\/)(\.[^/]*|Thumbs\.db|desktop\.ini)$/i;
const DONE: readonly TransferFileState[] = ['verified', 'unverified', 'skipped'];

export interface FakeTransfers {
  readonly draftRows: DraftRow[];
  readonly rows: TransferRow[];
  readonly batches: TransferBatch[];
  readonly transfers: Transfer[];
  settings: TransferSettings;
  /** Queue `n` files in batches of `perBatch` (for lists of 100,000). */
  seed(n: number, perBatch: number, state?: (i: number) => TransferFileState): void;
  setRows(ids: readonly string[], patch: Partial<TransferRow>): void;
  /** Announce changed rows (and the totals) the way core's coalesced event does. */
  emitChanges(ids: readonly string[], over?: Partial<TransferTotals>): void;
  totals(over?: Partial<TransferTotals>): TransferTotals;
  /** Let a scan started by drafts:add finish (emits draft:updated). Automatic unless `holdScans`. */
  finishScan(): void;
  holdScans: boolean;
  handle<C extends keyof Handlers>(channel: C, request: ChannelRequest<C>): Answer<C>;
}

export const createFakeTransfers = (emit: Emit, picked: () => readonly PickedFile[][]): FakeTransfers => {
  let version = 0;
  let scanning = false;
  let unreadable = 0;
  let duplicates = 0;
  let nextId = 1;
  const skipped: DraftSkip[] = [];
  const pendingScan: (() => void)[] = [];

  const fake: FakeTransfers = {
    draftRows: [],
    rows: [],
    batches: [],
    transfers: [],
    settings: structuredClone(DEFAULT_TRANSFER_SETTINGS),
    holdScans: false,
    seed(n, perBatch, state = () => 'queued') {
      const transfer = addTransfer(`Seeded ${n.toLocaleString('en-US')} files`);
      for (let b = 0; b * perBatch < n; b += 1) {
        const batch = addBatch(transfer, `Files ${(b * perBatch + 1).toLocaleString('en-US')}–${Math.min(n, (b + 1) * perBatch).toLocaleString('en-US')}`);
        for (let i = b * perBatch; i < Math.min(n, (b + 1) * perBatch); i += 1) {
          const s = state(i);
          fake.rows.push(row(transfer, batch, `shoot/day-${String(b).padStart(3, '0')}/clip-${String(i).padStart(6, '0')}.mov`, 10_000, s));
        }
      }
      recount();
    },
    setRows(ids, patch) {
      const set = new Set(ids);
      for (let i = 0; i < fake.rows.length; i += 1) {
        const r = fake.rows[i] as TransferRow;
        if (set.has(r.id)) fake.rows[i] = { ...r, ...patch };
      }
      recount();
    },
    emitChanges(ids, over = {}) {
      const set = new Set(ids);
      const rows = fake.rows.filter((r) => set.has(r.id));
      emit('transfers:changed', { totals: fake.totals(over), transfers: fake.transfers, batches: fake.batches, rows: rows.slice(0, 500), rowsTruncated: rows.length > 500 });
    },
    totals(over = {}) {
      const count = (states: readonly TransferFileState[]) => fake.rows.filter((r) => states.includes(r.state)).length;
      const bytesTotal = fake.rows.reduce((s, r) => s + r.size, 0);
      const bytesSent = fake.rows.reduce((s, r) => s + r.bytesSent, 0);
      const whole = {
        filesTotal: fake.rows.length,
        filesQueued: count(['queued', 'paused']),
        filesActive: count(['uploading', 'uploaded']),
        filesDone: count(['verified']),
        filesFailed: count(['failed']),
        filesCanceled: count(['canceled']),
        filesSkipped: count(['skipped']),
        bytesTotal,
        bytesSent,
        speedBps: 0,
        etaSeconds: null,
        paused: fake.transfers.length > 0 && fake.transfers.every((t) => t.state === 'paused'),
        waitingUntil: null,
        effectiveConcurrency: fake.settings.concurrency,
        ...over,
      };
      return { ...whole, current: over.current ?? currentFromTotals(whole) };
    },
    finishScan() {
      for (const done of pendingScan.splice(0)) done();
    },
    handle(channel, request) {
      return (handlers[channel] as (r: unknown) => Answer<typeof channel>)(request);
    },
  };

  const summary = (): DraftSummary => ({
    version,
    scanning,
    files: fake.draftRows.length,
    bytes: fake.draftRows.reduce((s, r) => s + r.size, 0),
    unreadable,
    duplicates,
  });
  const changed = () => {
    version += 1;
    emit('draft:updated', summary());
  };

  const addTransfer = (label: string): Transfer => {
    const transfer: Transfer = { id: `t${nextId++}`, workspaceId: 'local', createdAt: '2026-11-25T04:00:00.000Z', label, scanning: false, state: 'active', recipe: 'Just store the originals', batchCount: 0, filesTotal: 0, filesDone: 0, filesFailed: 0, bytesTotal: 0, bytesSent: 0 };
    fake.transfers.push(transfer);
    return transfer;
  };
  const addBatch = (transfer: Transfer, label: string): TransferBatch => {
    const batch: TransferBatch = { id: `b${nextId++}`, transferId: transfer.id, label, seq: fake.batches.length + 1, state: 'queued', runId: null, assemblyId: null, filesTotal: 0, filesDone: 0, filesFailed: 0, bytesTotal: 0, bytesSent: 0, error: null, note: null };
    fake.batches.push(batch);
    fake.transfers.forEach((t, i) => t.id === transfer.id && (fake.transfers[i] = { ...t, batchCount: t.batchCount + 1 }));
    return batch;
  };
  const row = (transfer: Transfer, batch: TransferBatch, relativePath: string, size: number, state: TransferFileState = 'queued'): TransferRow => ({
    id: `r${nextId++}`,
    transferId: transfer.id,
    batchId: batch.id,
    relativePath,
    size,
    bytesSent: DONE.includes(state) ? size : 0,
    state,
    method: size <= fake.settings.multipartMaxFileBytes ? 'multipart' : 'tus',
    attempts: state === 'queued' ? 0 : 1,
    error: state === 'failed' ? 'The service answered 500 (INTERNAL_ERROR).' : null,
    note: null,
  });
  // Batch and transfer counts follow their rows, as core's would (one pass over the rows).
  const recount = () => {
    type Counts = { filesTotal: number; filesDone: number; filesFailed: number; bytesTotal: number; bytesSent: number };
    const zero = (): Counts => ({ filesTotal: 0, filesDone: 0, filesFailed: 0, bytesTotal: 0, bytesSent: 0 });
    const byBatch = new Map<string, Counts>();
    const byTransfer = new Map<string, Counts>();
    for (const r of fake.rows) {
      for (const [map, key] of [[byBatch, r.batchId ?? ''], [byTransfer, r.transferId]] as const) {
        const c = map.get(key) ?? zero();
        c.filesTotal += 1;
        c.filesDone += DONE.includes(r.state) ? 1 : 0;
        c.filesFailed += r.state === 'failed' ? 1 : 0;
        c.bytesTotal += r.size;
        c.bytesSent += r.bytesSent;
        map.set(key, c);
      }
    }
    fake.batches.forEach((b, i) => (fake.batches[i] = { ...b, ...(byBatch.get(b.id) ?? zero()) }));
    fake.transfers.forEach((t, i) => (fake.transfers[i] = { ...t, ...(byTransfer.get(t.id) ?? zero()) }));
  };

  const skippedBy = (r: DraftRow, s: TransferSettings): keyof TransferPlan['skipped'] | null => {
    if (s.skip.skipHidden && HIDDEN.test(r.relativePath)) return 'hidden';
    if ((s.skip.minBytes !== null && r.size < s.skip.minBytes) || (s.skip.maxBytes !== null && r.size > s.skip.maxBytes)) return 'size';
    if (s.skip.exclude.some((p) => r.relativePath.toLowerCase().includes(p.replace(/\*/g, '').toLowerCase()))) return 'pattern';
    return null;
  };
  const kept = () => fake.draftRows.filter((r) => skippedBy(r, fake.settings) === null);
  const batchesOf = (rows: readonly DraftRow[]): { label: string; rows: DraftRow[] }[] => {
    const s = fake.settings;
    if (s.batchMode === 'per-drop') return rows.length ? [{ label: 'All files', rows: [...rows] }] : [];
    if (s.batchMode === 'per-folder') {
      const byFolder = new Map<string, DraftRow[]>();
      for (const r of rows) {
        const folder = r.relativePath.includes('/') ? (r.relativePath.split('/')[0] as string) : '(loose files)';
        byFolder.set(folder, [...(byFolder.get(folder) ?? []), r]);
      }
      return [...byFolder].map(([label, rs]) => ({ label, rows: rs }));
    }
    const out: { label: string; rows: DraftRow[] }[] = [];
    let current: DraftRow[] = [];
    let bytes = 0;
    const flush = () => {
      const first = rows.indexOf(current[0] as DraftRow) + 1;
      out.push({ label: `Files ${first.toLocaleString('en-US')}–${(first + current.length - 1).toLocaleString('en-US')}`, rows: current });
      current = [];
      bytes = 0;
    };
    for (const r of rows) {
      if (current.length > 0 && (current.length >= s.batchMaxFiles || bytes + r.size > s.batchMaxBytes)) flush();
      current.push(r);
      bytes += r.size;
    }
    if (current.length) flush();
    return out;
  };

  const handlers: { [C in keyof Handlers]: (request: ChannelRequest<C>) => Answer<C> } = {
    'drafts:add': (req) => {
      const items = picked().flat();
      const known = new Set(fake.draftRows.map((r) => `${r.handle}:${r.relativePath}`));
      scanning = true;
      const found: DraftRow[] = [];
      for (const handle of req.handles) {
        for (const item of items.filter((i) => `fh-${i.relativePath.split('/')[0] ?? i.relativePath}` === handle)) {
          if (/unreadable/.test(item.relativePath)) {
            skipped.push({ relativePath: item.relativePath, reason: 'Permission denied (EACCES): the file cannot be read.' });
            unreadable += 1;
            continue;
          }
          if (known.has(`${handle}:${item.relativePath}`)) {
            duplicates += 1;
            continue;
          }
          known.add(`${handle}:${item.relativePath}`);
          found.push({ id: `d${nextId++}`, handle, relativePath: item.relativePath, name: item.file.name, size: item.file.size, mime: item.file.type || null, leftOut: null });
        }
      }
      const answer = summary();
      pendingScan.push(() => {
        fake.draftRows.push(...found);
        scanning = false;
        changed();
      });
      if (!fake.holdScans) setTimeout(() => fake.finishScan(), 0);
      return ok(answer);
    },
    'drafts:get': () => ok(summary()),
    'drafts:rows': (req) => ok({ total: fake.draftRows.length, rows: fake.draftRows.slice(req.offset, req.offset + req.limit).map((r) => ({ ...r, leftOut: skippedBy(r, fake.settings) as DraftRow['leftOut'] })) }),
    'drafts:skipped': (req) => ok({ total: skipped.length, items: skipped.slice(req.offset, req.offset + req.limit) }),
    'drafts:remove': (req) => {
      const ids = new Set(req.ids);
      const left = fake.draftRows.filter((r) => !ids.has(r.id));
      fake.draftRows.splice(0, fake.draftRows.length, ...left);
      changed();
      return ok(summary());
    },
    'drafts:clear': () => {
      fake.draftRows.splice(0);
      skipped.splice(0);
      unreadable = 0;
      duplicates = 0;
      changed();
      return ok(summary());
    },
    'drafts:plan': (req) => {
      const rows = kept();
      const skippedCount = { hidden: 0, pattern: 0, size: 0, unchanged: 0, unreadable };
      for (const r of fake.draftRows) {
        const why = skippedBy(r, fake.settings);
        if (why) skippedCount[why] += 1;
      }
      const batches = batchesOf(rows);
      const multipart = rows.filter((r) => r.size <= fake.settings.multipartMaxFileBytes).length;
      const maxNumberOfFiles = 'template_id' in req.instructions ? 1_000 : null;
      const warnings: TransferPlan['warnings'] =
        maxNumberOfFiles !== null && fake.settings.batchMaxFiles > maxNumberOfFiles
          ? [{ code: 'MAX_NUMBER_OF_FILES_EXCEEDED', message: `The Template allows ${maxNumberOfFiles} files per Assembly; batches of ${fake.settings.batchMaxFiles} would be refused.`, field: 'batchMaxFiles' }]
          : [];
      return ok({
        files: rows.length,
        bytes: rows.reduce((s, r) => s + r.size, 0),
        skipped: skippedCount,
        assemblies: batches.length,
        batches: batches.slice(0, 200).map((b) => ({ label: b.label, files: b.rows.length, bytes: b.rows.reduce((s, r) => s + r.size, 0) })),
        multipartFiles: multipart,
        tusFiles: rows.length - multipart,
        limits: { maxSize: null, maxNumberOfFiles },
        warnings,
      });
    },
    'transfers:start': () => {
      const rows = kept();
      const transfer = addTransfer(rows[0]?.relativePath.split('/')[0] ?? 'Files');
      for (const b of batchesOf(rows)) {
        const batch = addBatch(transfer, b.label);
        for (const r of b.rows) fake.rows.push(row(transfer, batch, r.relativePath, r.size));
      }
      fake.draftRows.splice(0);
      recount();
      changed();
      fake.emitChanges([]);
      return ok(fake.transfers.find((t) => t.id === transfer.id) as Transfer);
    },
    'transfers:overview': () => ok({ totals: fake.totals(), transfers: fake.transfers, batches: fake.batches }),
    'transfers:rows': (req) => {
      const search = req.search?.toLowerCase();
      const matching = fake.rows.filter(
        (r) =>
          (!req.transferId || r.transferId === req.transferId) &&
          (!req.batchId || r.batchId === req.batchId) &&
          (!req.states || req.states.includes(r.state)) &&
          (!search || r.relativePath.toLowerCase().includes(search)),
      );
      const groups: { batchId: string | null; offset: number; count: number }[] = [];
      matching.forEach((r, i) => {
        const last = groups[groups.length - 1];
        if (last && last.batchId === r.batchId) last.count += 1;
        else groups.push({ batchId: r.batchId, offset: i, count: 1 });
      });
      return ok({ total: matching.length, groups, rows: matching.slice(req.offset, req.offset + req.limit) });
    },
    'transfers:control': (req) => {
      const { scope, action } = req;
      // As core: files an existing Assembly waits for are canceled only once the user agreed to send the rest again.
      if (action === 'cancel' && scope.kind === 'files' && !req.resend) {
        const chosen = new Set(scope.ids);
        const batches = fake.batches.filter((b) => b.assemblyId !== null && fake.rows.some((r) => r.batchId === b.id && chosen.has(r.id)));
        const cost = batches
          .map((b) => {
            const lost = fake.rows.filter((r) => r.batchId === b.id && !chosen.has(r.id) && r.state !== 'canceled' && (r.bytesSent > 0 || DONE.includes(r.state)));
            const transfer = fake.transfers.find((t) => t.id === b.transferId);
            return {
              batchId: b.id,
              label: b.label,
              transferLabel: transfer?.label ?? '',
              assemblyId: b.assemblyId,
              resendFiles: lost.length,
              resendBytes: lost.reduce((n, r) => n + r.size, 0),
              lostBytes: lost.reduce((n, r) => n + r.bytesSent, 0),
              files: lost.slice(0, 20).map((r) => ({ relativePath: r.relativePath, size: r.size, bytesSent: r.bytesSent, done: DONE.includes(r.state) })),
            };
          })
          .filter((c) => c.resendFiles > 0);
        if (cost.length > 0) return ok({ affected: 0, confirm: { batches: cost } });
      }
      const inScope = (r: TransferRow) =>
        scope.kind === 'all' || (scope.kind === 'transfer' && r.transferId === scope.id) || (scope.kind === 'batch' && r.batchId === scope.id) || (scope.kind === 'files' && scope.ids.includes(r.id));
      const next: Record<typeof action, (s: TransferFileState) => TransferFileState | null> = {
        pause: (s) => (s === 'queued' || s === 'uploading' ? 'paused' : null),
        resume: (s) => (s === 'paused' ? 'queued' : null),
        cancel: (s) => (s === 'queued' || s === 'uploading' || s === 'paused' ? 'canceled' : null),
        retry: (s) => (s === 'failed' || s === 'canceled' ? 'queued' : null),
      };
      const ids: string[] = [];
      fake.rows.forEach((r, i) => {
        const to = inScope(r) ? next[action](r.state) : null;
        if (to === null) return;
        fake.rows[i] = { ...r, state: to, error: to === 'queued' ? null : r.error };
        ids.push(r.id);
      });
      if (scope.kind === 'all' && (action === 'pause' || action === 'resume')) {
        fake.transfers.forEach((t, i) => (fake.transfers[i] = { ...t, state: action === 'pause' ? 'paused' : 'active' }));
      }
      if (scope.kind === 'batch') {
        const state = action === 'pause' ? 'paused' : action === 'cancel' ? 'canceled' : 'queued';
        fake.batches.forEach((b, i) => b.id === scope.id && (fake.batches[i] = { ...b, state }));
      }
      recount();
      fake.emitChanges(ids);
      return ok({ affected: ids.length });
    },
    'transfers:clearFinished': () => {
      const open = new Set(fake.rows.filter((r) => !DONE.includes(r.state) && r.state !== 'canceled').map((r) => r.transferId));
      const failed = new Set(fake.rows.filter((r) => r.state === 'failed').map((r) => r.transferId));
      const gone = new Set(fake.transfers.filter((t) => !open.has(t.id) && !failed.has(t.id)).map((t) => t.id));
      const files = fake.rows.filter((r) => gone.has(r.transferId)).length;
      fake.rows.splice(0, fake.rows.length, ...fake.rows.filter((r) => !gone.has(r.transferId)));
      fake.batches.splice(0, fake.batches.length, ...fake.batches.filter((b) => !gone.has(b.transferId)));
      fake.transfers.splice(0, fake.transfers.length, ...fake.transfers.filter((t) => !gone.has(t.id)));
      fake.emitChanges([]);
      return ok({ transfers: gone.size, files, keptWithFailures: [...failed].filter((id) => !open.has(id)).length });
    },
    'transfers:settings': () => ok(fake.settings),
    'transfers:saveSettings': (req) => {
      fake.settings = { ...fake.settings, ...req, skip: { ...fake.settings.skip, ...req.skip } };
      return ok(fake.settings);
    },
  };

  return fake;
};
