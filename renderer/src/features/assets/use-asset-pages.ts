import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { AssetListPage } from '../../../../shared/ipc/asset-models';
import { unwrap, type BridgeError } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { assetRows } from './asset-rows';

/** Assets per request: the service's maximum, so 100,000 assets are 200 requests as the user scrolls. */
export const PAGE_SIZE = 500;

/** The workspace is part of the key: a cursor belongs to the service that made it (a switch starts afresh). */
export const assetListKey = (folder: string, workspaceId: string) => ['assets:list', { folder, delimiter: '/', workspaceId }] as const;

/**
 * One folder level of stored assets, read by cursor as the list scrolls (`fetchNextPage` when the rows in
 * view near the end of what was read). The rows are rebuilt only when a page arrives.
 */
export function useAssetPages(folder: string) {
  const bridge = useBridge();
  const workspaceId = useBridgeQuery('app:info', {}).data?.activeWorkspaceId ?? null;
  const query = useInfiniteQuery<AssetListPage, BridgeError, { pages: AssetListPage[] }, ReturnType<typeof assetListKey>, string | null>({
    queryKey: assetListKey(folder, workspaceId ?? ''),
    queryFn: async ({ pageParam }) =>
      unwrap(await bridge.invoke('assets:list', { workspaceId: workspaceId ?? undefined, prefix: folder, limit: PAGE_SIZE, delimiter: '/', ...(pageParam ? { cursor: pageParam } : {}) })),
    enabled: workspaceId !== null,
    initialPageParam: null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 10_000,
    // Structural sharing compares every row of every page read on each new page: O(100,000) per page at
    // the end of a large folder. Pages are replaced whole anyway.
    structuralSharing: false,
  });
  const pages = query.data?.pages;
  const rows = useMemo(() => assetRows(pages ?? []), [pages]);
  return { query, rows };
}
