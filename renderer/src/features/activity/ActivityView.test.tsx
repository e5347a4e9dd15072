import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssemblyListItem, AssemblyListQuery } from '../../../../shared/ipc/assembly-models';
import { App } from '../../App';
import { createFakeBridge, sampleRun, withRun } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useNavigation } from '../../state/navigation-store';
import { useActivityFilters } from './activity-store';

const id = (n: number) => n.toString(16).padStart(32, '0');
const item = (n: number, over: Partial<AssemblyListItem> = {}): AssemblyListItem => ({
  id: id(n), parentId: null, templateId: null, state: 'ASSEMBLY_COMPLETED', error: null, created: '2026-11-24T10:00:00.000Z',
  fileNames: [`photo-${n}.jpg`], numInputFiles: 1, bytes: 2048, executionDuration: 1, notifyUrl: null, run: null, ...over,
});

/** A service with `total` Assemblies, every 3rd failed, answered page by page like core. */
const serviceList = (total: number, seen: AssemblyListQuery[] = []) => (req: AssemblyListQuery) => {
  seen.push(req);
  const all = Array.from({ length: total }, (_, i) => item(total - i, (total - i) % 3 === 0 ? { state: 'INVALID_INPUT_ERROR', error: 'INVALID_INPUT_ERROR' } : {}));
  const matching = all.filter((a) => (req.state === 'failed' ? a.error !== null : true) && (req.keywords ?? []).every((k) => a.fileNames.join(' ').includes(k)));
  const size = req.pageSize ?? 100;
  const page = req.page ?? 1;
  return { ok: true as const, value: { items: matching.slice((page - 1) * size, page * size), count: matching.length, page, pageSize: size } };
};

describe('Activity: the Assembly browser', () => {
  beforeEach(() => {
    useNavigation.setState({ route: { name: 'activity' } });
    useActivityFilters.getState().clear();
  });
  afterEach(cleanup);

  it('invites a first upload when the workspace has no Assemblies', async () => {
    renderWithBridge(<App />, createFakeBridge());
    expect(await screen.findByText('No Assemblies yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Upload files' }));
    expect(useNavigation.getState().route).toEqual({ name: 'upload' });
  });

  it('explains a key without assemblies:read with the code, and still lists the runs of this app', async () => {
    const bridge = createFakeBridge({ 'assemblies:list': () => ({ ok: false, error: { code: 'INSUFFICIENT_AUTH_SCOPE', message: 'This endpoint needs assemblies:read.' } }) });
    withRun(bridge, sampleRun());
    renderWithBridge(<App />, bridge);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('INSUFFICIENT_AUTH_SCOPE')).toBeTruthy();
    expect(alert.textContent).toContain("This workspace's key cannot list its Assemblies");
    expect(alert.textContent).toContain('assemblies:read');
    expect((await screen.findByRole('list', { name: 'Runs of this app' })).textContent).toContain('Uploading');
  });

  it('shows 10,000 Assemblies a page at a time: the count, only rows in view, each opening its detail', async () => {
    const seen: AssemblyListQuery[] = [];
    renderWithBridge(<App />, createFakeBridge({ 'assemblies:list': serviceList(10_000, seen) }));
    await waitFor(() => expect(screen.getByTestId('activity-count').textContent).toContain('10,000 Assemblies'));
    const rows = await screen.findAllByTestId('assembly-row');
    expect(rows.length).toBeLessThan(60);
    expect(seen.every((q) => q.pageSize === 100)).toBe(true);
    fireEvent.click(within(rows[0]!).getByRole('button', { name: new RegExp(id(10_000)) }));
    expect(useNavigation.getState().route).toEqual({ name: 'assembly', assemblyId: id(10_000) });
  });

  it('filters by state and words, and bulk-replays what matches after a confirmation that states the count, then shows every Assembly', async () => {
    const seen: AssemblyListQuery[] = [];
    const bridge = createFakeBridge({ 'assemblies:list': serviceList(30, seen) });
    renderWithBridge(<App />, bridge);
    await screen.findByText('30 Assemblies');
    fireEvent.click(screen.getByRole('button', { name: 'Failed' }));
    await waitFor(() => expect(screen.getByTestId('activity-count').textContent).toContain('10 Assemblies match'));
    expect(seen.at(-1)).toMatchObject({ state: 'failed', page: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'Select all 10' }));
    expect((await screen.findByTestId('selection-count')).textContent).toBe('10 Assemblies selected');
    fireEvent.click(screen.getByRole('button', { name: 'Replay 10…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replay 10 Assemblies?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Replay 10' }));
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'assemblies:replayMany')).toBe(true));
    const call = bridge.calls.find((c) => c.channel === 'assemblies:replayMany')!.request as { assemblyIds: string[] };
    expect(call.assemblyIds).toHaveLength(10);
    expect(call.assemblyIds).toContain(id(30));

    // The replays lead the whole list: the filter is let go so they show, running.
    await waitFor(() => expect(screen.getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('true'));
    fireEvent.click(screen.getByRole('button', { name: 'Failed' }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search Assemblies' }), { target: { value: 'photo-27' } });
    await waitFor(() => expect(seen.at(-1)).toMatchObject({ state: 'failed', keywords: ['photo-27'] }));
    await waitFor(() => expect(screen.getAllByTestId('assembly-row')).toHaveLength(1));
  });

  it('cancels a selection after asking, and says how many were canceled, had ended, or were refused', async () => {
    const bridge = createFakeBridge({
      'assemblies:list': serviceList(6),
      'assemblies:cancelMany': (req) => ({
        ok: true,
        value: { canceled: req.assemblyIds.slice(0, 1), alreadyEnded: req.assemblyIds.slice(1, 2), failed: [{ assemblyId: req.assemblyIds[2]!, code: 'INSUFFICIENT_AUTH_SCOPE', message: 'No assemblies:write.' }] },
      }),
    });
    renderWithBridge(<App />, bridge);
    await screen.findByText('6 Assemblies');
    for (const n of [6, 5, 4]) fireEvent.click(screen.getByLabelText(`Select ${id(n)}`));
    expect((await screen.findByTestId('selection-count')).textContent).toBe('3 Assemblies selected');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel 3…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel 3 Assemblies?' });
    expect(within(dialog).getByTestId('cancel-selection-consequences').textContent).toContain('Those that have already ended are left as they are.');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bridge.calls.some((c) => c.channel === 'assemblies:cancelMany')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Cancel 3…' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Stop the running ones' }));
    expect(await screen.findByText('Canceled 1 Assembly; 1 had already ended and was left as it was; 1 refused: INSUFFICIENT_AUTH_SCOPE — No assemblies:write.')).toBeTruthy();
    const sent = bridge.calls.find((c) => c.channel === 'assemblies:cancelMany')!.request as { assemblyIds: string[] };
    expect(sent.assemblyIds.sort()).toEqual([id(4), id(5), id(6)]);
    await waitFor(() => expect(screen.queryByTestId('selection-count')).toBeNull());
  });

  it('keeps reading the Running view while it is chosen, so an Assembly that starts executing shows up without a refresh', async () => {
    const seen: AssemblyListQuery[] = [];
    let executing: AssemblyListItem[] = [];
    const bridge = createFakeBridge({
      'assemblies:list': (req) => {
        seen.push(req);
        const items = req.state === 'executing' ? executing : [item(1)];
        return { ok: true, value: { items, count: items.length, page: 1, pageSize: req.pageSize ?? 100 } };
      },
    });
    renderWithBridge(<App />, bridge);
    await screen.findByText('1 Assembly');
    fireEvent.click(screen.getByRole('button', { name: 'Running' }));
    expect(await screen.findByText('No Assemblies match')).toBeTruthy();
    // Nothing to select: the hint ends there instead of offering "Select all".
    expect(screen.getByText(/export a manifest\.$/)).toBeTruthy();
    executing = [item(2, { state: 'ASSEMBLY_EXECUTING' })];
    await waitFor(() => expect(screen.getByTestId('activity-count').textContent).toContain('1 Assembly match'), { timeout: 4_000 });
    expect(seen.filter((q) => q.state === 'executing').length).toBeGreaterThanOrEqual(2);
  });

  it("a run of this app opens its Assembly's view, and its row follows the run live", async () => {
    const bridge = createFakeBridge();
    withRun(bridge, sampleRun());
    renderWithBridge(<App />, bridge);
    const list = await screen.findByRole('list', { name: 'Recent Assemblies' });
    expect(list.textContent).toContain('Uploading');
    expect(list.textContent).toContain('this app');
    bridge.emit('run:updated', { run: sampleRun({ state: 'ASSEMBLY_COMPLETED' }), delta: null });
    await waitFor(() => expect(list.textContent).toContain('Completed'), { timeout: 3000 });
    fireEvent.click(within(list).getByTestId('assembly-open'));
    expect(useNavigation.getState().route).toEqual({ name: 'assembly', assemblyId: sampleRun().assemblyId });
  });
});
