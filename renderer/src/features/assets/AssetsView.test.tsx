import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssetListRequest } from '../../../../shared/ipc/asset-models';
import { App } from '../../App';
import { createFakeBridge, sampleAsset } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { answerDiscard, leaveAndStay } from '../../bridge/test/unsaved-questions';
import { useNavigation } from '../../state/navigation-store';

const id = (n: number) => `${n.toString(36).padStart(21, '0')}A`;

/** A service with `total` assets in photos/ and two folders, answered by cursor like core. */
const serviceList = (total: number, seen: AssetListRequest[] = []) => (req: AssetListRequest) => {
  seen.push(req);
  const start = req.cursor ? Number(req.cursor) : 0;
  const size = req.limit ?? 100;
  const assets = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => sampleAsset({ assetId: id(start + i), path: `photos/p${String(start + i).padStart(5, '0')}.jpg`, filename: `p${String(start + i).padStart(5, '0')}.jpg` }));
  const next = start + size < total ? String(start + size) : null;
  return { ok: true as const, value: { assets, folders: start === 0 ? ['photos/2026', 'photos/2025'] : [], nextCursor: next, workspace: 'local' } };
};

describe('Assets: the stored-asset browser', () => {
  beforeEach(() => useNavigation.setState({ route: { name: 'assets', folder: 'photos' } }));
  afterEach(cleanup);

  it('explains the store step and links to Templates when nothing is stored yet', async () => {
    useNavigation.setState({ route: { name: 'assets' } });
    renderWithBridge(<App />, createFakeBridge());
    expect(await screen.findByText('No stored assets yet', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('/transloadit/store')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open Templates' }));
    expect(useNavigation.getState().route).toEqual({ name: 'templates' });
  });

  it('explains a key without dam:read with the code', async () => {
    renderWithBridge(<App />, createFakeBridge({ 'assets:list': () => ({ ok: false, error: { code: 'INSUFFICIENT_AUTH_SCOPE', message: 'needs dam:read' } }) }));
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(within(alert).getByText('INSUFFICIENT_AUTH_SCOPE')).toBeTruthy();
    expect(alert.textContent).toContain('needs the dam:read scope');
  });

  it('shows folders first, then assets, with the path as a breadcrumb, and opens a folder', async () => {
    const seen: AssetListRequest[] = [];
    renderWithBridge(<App />, createFakeBridge({ 'assets:list': serviceList(3, seen) }));
    const folders = await screen.findAllByTestId('asset-folder', {}, { timeout: 5000 });
    expect(folders.map((f) => f.dataset.folder)).toEqual(['photos/2025', 'photos/2026']);
    expect(screen.getAllByTestId('asset-row').map((r) => r.dataset.path)).toEqual(['photos/p00000.jpg', 'photos/p00001.jpg', 'photos/p00002.jpg']);
    expect(seen[0]).toMatchObject({ prefix: 'photos', delimiter: '/' });
    const crumbs = screen.getByTestId('asset-breadcrumb');
    expect(within(crumbs).getAllByRole('button').map((b) => b.textContent)).toEqual(['All assets', 'photos']);
    fireEvent.click(within(folders[1]!).getByRole('button', { name: '2026' }));
    expect(useNavigation.getState().route).toEqual({ name: 'assets', folder: 'photos/2026' });
  });

  it('reads the next page by cursor when the rows in view near the end of what was read', async () => {
    const seen: AssetListRequest[] = [];
    renderWithBridge(<App />, createFakeBridge({ 'assets:list': serviceList(1200, seen) }));
    await screen.findAllByTestId('asset-row', {}, { timeout: 5000 });
    // 500 rows read; the list shows placeholders for the next page, and nothing more is read until scrolled there.
    expect(seen.map((r) => r.cursor ?? null)).toEqual([null]);
    expect(screen.getByTestId('asset-count').textContent).toBe('502 items so far');
  });

  it('selects with Ctrl+A and confirms a delete naming the count, in one request per selection', async () => {
    const bridge = createFakeBridge({ 'assets:list': serviceList(3) });
    renderWithBridge(<App />, bridge);
    await screen.findAllByTestId('asset-row', {}, { timeout: 5000 });
    const grid = screen.getByRole('grid');
    fireEvent.keyDown(grid, { key: 'a', ctrlKey: true });
    expect(screen.getByTestId('asset-selection-count').textContent).toBe('3 assets and 2 folders selected');
    fireEvent.keyDown(grid, { key: 'Delete' });
    const dialog = await screen.findByRole('dialog', { name: 'Delete 3 assets and 2 folders?' });
    expect(within(dialog).getByTestId('delete-consequences').textContent).toContain('Folders are deleted with every asset in them');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'assets:bulkDelete')).toBe(true));
    const call = bridge.calls.find((c) => c.channel === 'assets:bulkDelete')!;
    expect(call.request).toEqual({ assetIds: [id(0), id(1), id(2)], folders: ['photos/2025', 'photos/2026'] });
  });

  /** Selects everything, opens "Move to…" and types a destination. */
  const typeDestination = async (bridge: ReturnType<typeof createFakeBridge>) => {
    renderWithBridge(<App />, bridge);
    await screen.findAllByTestId('asset-row', {}, { timeout: 5000 });
    fireEvent.keyDown(screen.getByRole('grid'), { key: 'a', ctrlKey: true });
    fireEvent.click(screen.getByRole('button', { name: 'Move to…' }));
    const move = await screen.findByRole('dialog', { name: 'Move 3 assets and 2 folders' });
    const field = within(move).getByLabelText('Destination folder') as HTMLInputElement;
    fireEvent.change(field, { target: { value: 'archive/2026' } });
    return { move, field };
  };

  it('Move to…: a destination typed is asked about before Cancel or leaving the screen throws it away; Cancel and Stay keep it', async () => {
    const { move, field } = await typeDestination(createFakeBridge({ 'assets:list': serviceList(3) }));
    fireEvent.click(within(move).getByRole('button', { name: 'Cancel' }));
    await answerDiscard('Cancel');
    expect(field.value).toBe('archive/2026');
    // Leaving the screen asks too; Stay keeps the dialog and what is typed.
    await leaveAndStay('the destination folder typed for the move', 'assets');
    expect(field.value).toBe('archive/2026');
  });

  it('Move to…: Escape with a destination typed asks the same question; Discard changes closes the dialog and moves nothing', async () => {
    const bridge = createFakeBridge({ 'assets:list': serviceList(3) });
    const { move } = await typeDestination(bridge);
    fireEvent(move, new Event('cancel', { cancelable: true }));
    await answerDiscard('Discard changes');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Move 3 assets and 2 folders' })).toBeNull());
    expect(bridge.calls.some((c) => c.channel.startsWith('assets:move'))).toBe(false);
    expect(useNavigation.getState().unsaved.size).toBe(0);
  });

  it('renames inline with F2, checking the filename rule before asking core', async () => {
    const bridge = createFakeBridge({ 'assets:list': serviceList(2), 'assets:rename': (req) => ({ ok: true, value: sampleAsset({ assetId: req.assetId, filename: req.filename }) }) });
    renderWithBridge(<App />, bridge);
    await screen.findAllByTestId('asset-row', {}, { timeout: 5000 });
    const grid = screen.getByRole('grid');
    // Folders are rows 0 and 1: move to the first asset.
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    fireEvent.keyDown(grid, { key: 'F2' });
    const input = await screen.findByRole('textbox', { name: 'New name for p00000.jpg' });
    fireEvent.change(input, { target: { value: 'a/b.jpg' } });
    expect(screen.getByTestId('rename-error').textContent).toContain('/');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(bridge.calls.some((c) => c.channel === 'assets:rename')).toBe(false);
    fireEvent.change(input, { target: { value: 'beach.jpg' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'assets:rename')?.request).toEqual({ assetId: id(0), filename: 'beach.jpg' }));
  });

  it('goes up a folder with Backspace', async () => {
    renderWithBridge(<App />, createFakeBridge({ 'assets:list': serviceList(1) }));
    await screen.findAllByTestId('asset-row', {}, { timeout: 5000 });
    fireEvent.keyDown(screen.getByRole('grid'), { key: 'Backspace' });
    expect(useNavigation.getState().route).toEqual({ name: 'assets' });
  });
});
