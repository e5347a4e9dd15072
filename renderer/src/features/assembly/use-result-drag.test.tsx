import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssemblyFile } from '../../../../shared/api/assembly-status';
import { ok } from '../../../../shared/result';
import { createFakeBridge, sampleAppInfo } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { ResultsByStep } from './ResultsByStep';

const ASSEMBLY = 'a'.repeat(32);
const card = (f: AssemblyFile) => <ResultsByStep assemblyId={ASSEMBLY} results={{ small: [f] }} order={['small']} busy={false} />;
const file: AssemblyFile = { id: 'r1', name: 'beach.webp', mime: 'image/webp', size: 2048, ssl_url: 'http://127.0.0.1:5000/results/abc/beach.webp' } as AssemblyFile;

function dataTransfer() {
  const set: Record<string, string> = {};
  return { set, value: { setData: (type: string, value: string) => void (set[type] = value), effectAllowed: 'all' } };
}

describe('dragging a result out', () => {
  afterEach(cleanup);

  it('browser host: the drag carries the file as DownloadURL and the link as uri-list', async () => {
    renderWithBridge(card(file), createFakeBridge({ 'app:info': () => ok(sampleAppInfo({ host: 'browser' })) }));
    const item = screen.getByRole('listitem', { name: 'beach.webp' });
    await waitFor(() => expect(item.getAttribute('draggable')).toBe('true'));
    const dt = dataTransfer();
    fireEvent.dragStart(item, { dataTransfer: dt.value });
    expect(dt.set).toMatchObject({ DownloadURL: `image/webp:beach.webp:${file.ssl_url}`, 'text/uri-list': file.ssl_url });
  });

  it('Electron host: the page drag is replaced by a native drag of the file core fetched', async () => {
    const bridge = createFakeBridge({ 'app:info': () => ok(sampleAppInfo({ host: 'electron' })), 'results:startDrag': () => ok({ path: '/data/drag-cache/x/beach.webp' }) });
    renderWithBridge(card(file), bridge);
    const item = screen.getByRole('listitem', { name: 'beach.webp' });
    await waitFor(() => expect(item.getAttribute('draggable')).toBe('true'));
    const dt = dataTransfer();
    fireEvent.pointerDown(item);
    const notCanceled = fireEvent.dragStart(item, { dataTransfer: dt.value });
    expect(notCanceled).toBe(false);
    expect(dt.set).toEqual({});
    // Fetched as the mouse goes down, dragged at dragstart.
    expect(bridge.calls.filter((c) => c.channel === 'results:startDrag').map((c) => c.request)).toEqual([
      { assemblyId: ASSEMBLY, url: file.ssl_url, name: 'beach.webp', start: false },
      { assemblyId: ASSEMBLY, url: file.ssl_url, name: 'beach.webp' },
    ]);
  });

  it('a result without a URL cannot be dragged', () => {
    renderWithBridge(card({ ...file, ssl_url: undefined, url: undefined } as AssemblyFile), createFakeBridge());
    expect(screen.getByRole('listitem', { name: 'beach.webp' }).getAttribute('draggable')).toBe('false');
  });
});
