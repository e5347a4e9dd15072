import type { MediaPreview } from '../../../shared/ipc/models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import {
  bulkDelete,
  bulkMove,
  deleteAsset,
  dispositionName,
  getAsset,
  listAssets,
  moveAsset,
  openContent,
  renameAsset,
  useAsInput,
} from '../assets/asset-api';
import { createPreviewCache, type PreviewCache } from '../assets/preview-cache';
import { saveResponseToDir } from '../files/download';
import type { DownloadLedger } from '../files/download-ledger';
import { mediaKindOf, thumbnailFromResponse } from '../files/thumbnails';
import type { Handlers } from '../ipc/handlers';
import { withApi, type HandlerContext } from './context';

type AssetChannels =
  | 'assets:list'
  | 'assets:get'
  | 'assets:rename'
  | 'assets:move'
  | 'assets:delete'
  | 'assets:bulkMove'
  | 'assets:bulkDelete'
  | 'assets:download'
  | 'assets:thumbnail'
  | 'assets:useAsInput';

/** A preview is not worth more than this many bytes of download. */
const PREVIEW_MAX_BYTES = 30 * 1024 * 1024;

/** The Assets browser (docs/assets.md): every call goes through the workspace's API client (signed or Bearer). */
export function createAssetHandlers(ctx: HandlerContext, downloads: DownloadLedger, previews: PreviewCache = createPreviewCache()): Pick<Handlers, AssetChannels> {
  const preview = (workspaceId: string | undefined, assetId: string, versionId: string | undefined, size: number): Promise<Result<MediaPreview>> =>
    withApi(ctx, workspaceId, async (api, id) => {
      // A version's bytes never change: a preview made once serves every later scroll past the row.
      const key = `${id}|${assetId}|${versionId ?? 'current'}|${size}`;
      const cached = versionId ? previews.get(key) : undefined;
      if (cached) return ok(cached);
      return previews.run(async () => {
        const content = await openContent(api, assetId, versionId, 20_000);
        if (!content.ok) return content;
        const mime = content.value.headers.get('content-type')?.split(';')[0]?.trim() ?? null;
        const kind = mediaKindOf(mime);
        if (kind !== 'image') {
          await content.value.body?.cancel();
          return ok({ kind, duration: null, dataUrl: null });
        }
        try {
          const dataUrl = await thumbnailFromResponse(content.value, size, { maxBytes: PREVIEW_MAX_BYTES });
          const made: MediaPreview = { kind: 'image', duration: null, dataUrl };
          if (versionId) previews.set(key, made);
          return ok(made);
        } catch (cause) {
          return err(AppErrorCode.network, `Could not load the preview: ${cause instanceof Error ? cause.message : String(cause)}`);
        }
      });
    });

  return {
    'assets:list': ({ workspaceId, ...options }) => withApi(ctx, workspaceId, (api) => listAssets(api, options)),
    'assets:get': ({ workspaceId, assetId, versionId }) => withApi(ctx, workspaceId, (api) => getAsset(api, assetId, versionId)),
    'assets:rename': ({ workspaceId, assetId, filename }) => withApi(ctx, workspaceId, (api) => renameAsset(api, assetId, filename)),
    'assets:move': ({ workspaceId, assetId, destination }) => withApi(ctx, workspaceId, (api) => moveAsset(api, assetId, destination)),
    'assets:delete': ({ workspaceId, assetId }) => withApi(ctx, workspaceId, async (api) => {
      const deleted = await deleteAsset(api, assetId);
      return deleted.ok ? ok({}) : deleted;
    }),
    'assets:bulkMove': ({ workspaceId, assetIds, folders, destination }) => withApi(ctx, workspaceId, (api) => bulkMove(api, { assetIds, folders }, destination)),
    'assets:bulkDelete': ({ workspaceId, assetIds, folders }) => withApi(ctx, workspaceId, (api) => bulkDelete(api, { assetIds, folders })),
    'assets:download': ({ workspaceId, assetId, versionId }) =>
      withApi(ctx, workspaceId, async (api) => {
        const content = await openContent(api, assetId, versionId);
        if (!content.ok) return content;
        const name = dispositionName(content.value.headers.get('content-disposition'), assetId);
        try {
          const saved = await saveResponseToDir(content.value, ctx.downloadsDir, name);
          downloads.record(saved);
          return ok({ path: saved });
        } catch (cause) {
          return err(AppErrorCode.network, `Could not download ${name}: ${cause instanceof Error ? cause.message : String(cause)}`);
        }
      }),
    'assets:thumbnail': ({ workspaceId, assetId, versionId, size }) => preview(workspaceId, assetId, versionId, size),
    'assets:useAsInput': ({ workspaceId, assetIds, templateId, steps, fields }) => withApi(ctx, workspaceId, (api) => useAsInput(api, { assetIds, templateId, steps, fields })),
  };
}
