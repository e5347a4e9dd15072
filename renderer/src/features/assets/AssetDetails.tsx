import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import type { AssetDetail } from '../../../../shared/ipc/asset-models';
import { toAppError } from '../../bridge/bridge-error';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { StaleNotice } from '../../components/StaleNotice';
import { dimensions } from './asset-rows';
import { formatBytes } from '../../lib/format';
import { formatDateTime } from '../../lib/date-time';
import { useToasts } from '../../state/toast-store';
import { AssetThumb } from './AssetThumb';

interface Props {
  readonly assetId: string;
  readonly onRename: () => void;
  readonly onMove: () => void;
  readonly onDelete: () => void;
  readonly onUse: () => void;
  readonly onClose: () => void;
}

const exact = (n: number | null): string | null => (n === null ? null : `${formatBytes(n)} (${n.toLocaleString('en-US')} bytes)`);

/**
 * Everything the service knows about one asset, for the version picked (the newest by default): an older
 * version shows its own size, checksums and preview, and downloads its own bytes.
 */
export const AssetDetails = ({ assetId, onRename, onMove, onDelete, onUse, onClose }: Props) => {
  const [versionId, setVersionId] = useState<string | null>(null);
  const detail = useBridgeQuery('assets:get', { assetId, ...(versionId ? { versionId } : {}) }, { staleTime: 5_000, placeholderData: keepPreviousData });
  const toast = useToasts((s) => s.show);
  const download = useBridgeMutation('assets:download', {
    onSuccess: ({ path }) => toast(`Saved to ${path}`, 'success'),
    onError: (error) => {
      const e = toAppError(error);
      toast(`Could not download: ${e.code} — ${e.message}`, 'danger');
    },
  });
  const open = useBridgeMutation('shell:openPath');

  if (detail.isPending) {
    return (
      <section className="asset-details" aria-label="Asset details">
        <Spinner size={20} label="Loading the asset" />
      </section>
    );
  }
  if (!detail.data) {
    return (
      <section className="asset-details" aria-label="Asset details">
        <ErrorPanel title="Could not load this asset" code={detail.error?.code ?? 'UNKNOWN'} message={detail.error?.message ?? ''} action={<Button onClick={onClose}>Close</Button>} />
      </section>
    );
  }
  const data: AssetDetail = detail.data;
  const { asset } = data;
  const shown = data.shownVersionId;
  const newest = data.versions[0]?.versionId ?? asset.versionId;
  const older = shown !== null && newest !== null && shown !== newest;
  const facts: Array<[string, string | null, boolean?]> = [
    ['Path', asset.path, true],
    ['Size', exact(asset.size)],
    ['Type', asset.mime],
    ['Dimensions', dimensions(asset)],
    ['Has alpha', asset.hasAlpha === null ? null : asset.hasAlpha ? 'Yes' : 'No'],
    ['MD5', asset.md5hash, true],
    ['SHA-256', asset.sha256, true],
    ['Asset id', asset.assetId, true],
    ['Version id', asset.versionId, true],
    ['Workspace', data.workspace],
    ['Created', asset.createdAt ? formatDateTime(asset.createdAt) : null],
    ['Updated', asset.updatedAt ? formatDateTime(asset.updatedAt) : null],
  ];
  return (
    <section className="asset-details" aria-label="Asset details" data-testid="asset-details">
      {detail.isError && <StaleNotice updatedAt={detail.dataUpdatedAt} error={detail.error} onRetry={() => void detail.refetch()} />}
      <div className="asset-details-head">
        <h2 className="asset-details-title" title={asset.path}>
          {asset.filename}
        </h2>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
      <div className="asset-preview">
        {/* An image gets room; anything else only its type icon, not an empty square. */}
        <AssetThumb key={asset.versionId ?? ''} assetId={asset.assetId} versionId={asset.versionId} mime={asset.mime} thumbhash={older ? null : asset.thumbhash} size={asset.mime?.startsWith('image/') ? 200 : 48} />
      </div>
      {older && (
        <p className="asset-older muted small" data-testid="asset-older-version">
          An older version — the current one is the first in the list below.
        </p>
      )}
      <dl className="asset-facts" data-testid="asset-facts">
        {facts
          .filter(([, value]) => value !== null)
          .map(([label, value, mono]) => (
            <div key={label} data-fact={label}>
              <dt>{label}</dt>
              <dd className={mono ? 'mono' : undefined}>{value}</dd>
            </div>
          ))}
      </dl>
      <div className="asset-actions">
        <Button size="sm" variant="primary" busy={download.isPending} onClick={() => download.mutate({ assetId: asset.assetId, ...(older && shown ? { versionId: shown } : {}) })}>
          {older ? 'Download this version' : 'Download'}
        </Button>
        {download.data && (
          <Button size="sm" variant="ghost" onClick={() => open.mutate({ path: download.data.path })}>
            Open download
          </Button>
        )}
        <Button size="sm" onClick={onRename}>
          Rename
        </Button>
        <Button size="sm" onClick={onMove}>
          Move to…
        </Button>
        <Button size="sm" onClick={onUse}>
          Use as input…
        </Button>
        <Button size="sm" variant="danger" onClick={onDelete}>
          Delete…
        </Button>
      </div>
      {download.data && (
        <p className="muted small" data-testid="asset-download-path">
          Saved to <span className="mono">{download.data.path}</span>
        </p>
      )}
      <h3 className="asset-versions-title">
        Versions <span className="muted small">({data.versions.length})</span>
      </h3>
      <ul className="asset-versions" aria-label="Versions" data-testid="asset-versions">
        {data.versions.map((v, i) => (
          <li key={v.versionId}>
            <button
              type="button"
              className="asset-version"
              aria-pressed={v.versionId === shown}
              data-testid="asset-version"
              data-version-id={v.versionId}
              onClick={() => setVersionId(i === 0 ? null : v.versionId)}
            >
              <span>{i === 0 ? 'Current' : `Version ${data.versions.length - i}`}</span>
              <span className="muted small num">
                {[v.size !== null ? formatBytes(v.size) : null, v.createdAt ? formatDateTime(v.createdAt) : null].filter(Boolean).join(' · ')}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
};
