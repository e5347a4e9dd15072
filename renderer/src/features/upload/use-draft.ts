import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PickedFile, PickedRoot } from '../../../../shared/ipc/bridge';
import type { DraftRow, DraftSummary } from '../../../../shared/ipc/transfer-models';
import { unwrap, type BridgeError } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { draftKey } from '../../bridge/transfer-events';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { emptyCache, markAllStale, pagesToFetch, putPage, type RowCache } from '../../lib/row-pages';
import { useThrottled } from './use-throttled';

/** The contract takes at most this many picked roots per drafts:add. */
const MAX_HANDLES = 10_000;
export const DRAFT_PAGE = 200;

/** Ask the host to show its folder picker (bridge.pickFolder) instead of reading files in the page. */
export const PICK_FOLDER = 'pick-folder';
export type AddSource = (() => Promise<PickedFile[]>) | typeof PICK_FOLDER;

/** Keep the newer of two summaries (an answer can arrive after a later event). */
const newer = (old: DraftSummary | undefined, next: DraftSummary): DraftSummary => (old && old.version > next.version ? old : next);

/** The draft held in core: its summary (kept live by `draft:updated`), add, remove and clear. */
export const useDraft = () => {
  const bridge = useBridge();
  const client = useQueryClient();
  const summary = useBridgeQuery('drafts:get', {});
  const store = (next: DraftSummary) => client.setQueryData(draftKey(), (old: DraftSummary | undefined) => newer(old, next));

  /** Dropped or picked files → handles core issued for them → core walks them into the draft (answers at once). */
  const add = useMutation<{ empty: boolean }, BridgeError | Error, AddSource>({
    mutationFn: async (source) => {
      let roots: readonly PickedRoot[];
      if (source === PICK_FOLDER) {
        // The host's own folder picker (Electron's dialog, the browser's directory picker): no page-side read of the folder.
        const picked = bridge.pickFolder ? unwrap(await bridge.pickFolder()) : null;
        if (picked === null) return { empty: false };
        roots = picked;
      } else {
        const picked = await source();
        if (picked.length === 0) return { empty: true };
        roots = unwrap(await bridge.handlesForFiles(picked));
      }
      if (roots.length === 0) return { empty: true };
      for (let i = 0; i < roots.length; i += MAX_HANDLES) {
        store(unwrap(await bridge.invoke('drafts:add', { handles: roots.slice(i, i + MAX_HANDLES).map((r) => r.handle) })));
      }
      return { empty: false };
    },
  });
  const remove = useBridgeMutation('drafts:remove', { onSuccess: store });
  const clear = useBridgeMutation('drafts:clear', { onSuccess: store });
  return { summary, add, remove, clear };
};

/**
 * The pages of draft rows the list shows, read for the rows in view only and read again (at most every
 * 400 ms) when the draft's version moves, keeping the old rows on screen meanwhile.
 */
/** `rulesKey` changes with the skip rules: each row says whether Start leaves it out, so the rows are read again. */
export const useDraftRows = (version: number, files: number, rulesKey = '') => {
  const bridge = useBridge();
  const [cache, setCache] = useState<RowCache<DraftRow>>(() => emptyCache(DRAFT_PAGE));
  const [range, setRange] = useState({ start: 0, end: 40 });
  const settledVersion = useThrottled(version, 400);
  const inFlight = useRef(new Set<number>());
  const generation = useRef(0);
  const lastFiles = useRef(files);

  // Files removed (or cleared): the cached rows no longer sit where they were; never show them there.
  useEffect(() => {
    if (files < lastFiles.current) {
      generation.current += 1;
      inFlight.current = new Set();
      setCache(emptyCache(DRAFT_PAGE));
    }
    lastFiles.current = files;
  }, [files]);

  // Files added while a folder is walked: keep the rows on screen, read them again (throttled).
  useEffect(() => {
    generation.current += 1;
    inFlight.current = new Set();
    setCache((c) => markAllStale(c));
  }, [settledVersion, rulesKey]);

  useEffect(() => {
    for (const page of pagesToFetch(cache, range.start, Math.max(range.end, range.start + 1), inFlight.current)) {
      const gen = generation.current;
      inFlight.current.add(page);
      void bridge.invoke('drafts:rows', { offset: page * DRAFT_PAGE, limit: DRAFT_PAGE }).then((answer) => {
        if (gen !== generation.current) return;
        inFlight.current.delete(page);
        if (answer.ok) setCache((c) => putPage(c, page, answer.value.rows));
      });
    }
  }, [bridge, cache, range.start, range.end]);

  const onRange = useCallback((start: number, end: number) => setRange((r) => (r.start === start && r.end === end ? r : { start, end })), []);
  return { cache, onRange };
};
