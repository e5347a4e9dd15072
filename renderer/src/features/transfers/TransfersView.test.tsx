import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../App';
import { createFakeBridge, type FakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { answerDiscard, leaveAndStay } from '../../bridge/test/unsaved-questions';
import { useNavigation } from '../../state/navigation-store';
import { resetTransfers } from './transfer-store';

const rowsCalls = (bridge: FakeBridge) => bridge.calls.filter((c) => c.channel === 'transfers:rows');
const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

describe('Transfers view', () => {
  let bridge: FakeBridge;
  beforeEach(() => {
    resetTransfers();
    useNavigation.setState({ route: { name: 'transfers' } });
    bridge = createFakeBridge();
  });
  afterEach(cleanup);

  it('says nothing is transferring and offers the Upload view', async () => {
    renderWithBridge(<App />, bridge);
    expect(await screen.findByText('Nothing is transferring')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Upload files' }));
    expect(useNavigation.getState().route.name).toBe('upload');
  });

  it('shows 100,000 queued files as one list grouped by batch, rendering only the lines in view', async () => {
    bridge.queue.seed(100_000, 1_000, (i) => (i < 3 ? 'verified' : i === 3 ? 'failed' : 'queued'));
    renderWithBridge(<App />, bridge);
    const list = await screen.findByRole('grid', { name: 'Files in the transfer queue' });
    await waitFor(() => expect(within(list).getAllByTestId('transfer-row').length).toBeGreaterThan(5));
    const lines = list.querySelectorAll('[role="row"]').length;
    expect(lines).toBeLessThan(40);
    // The scrollbar stands for every file plus one header per batch.
    expect((list.firstElementChild as HTMLElement).style.height).toBe(`${(100_000 + 100) * 44}px`);
    const header = within(list).getAllByTestId('transfer-batch')[0] as HTMLElement;
    // Named for its drop (what, when, how), then which Assembly of it.
    expect(within(header).getByTestId('batch-drop').textContent).toMatch(/^Seeded 100,000 files · .+ · Just store the originals$/);
    expect(within(header).getByTestId('batch-which').textContent).toBe('Assembly 1 of 100 · Files 1–1,000');
    expect(header.textContent).toContain('3 of 1,000 files');
    expect(header.textContent).toContain('1 failed');
    const failed = within(list).getAllByTestId('transfer-row').find((r) => r.dataset.state === 'failed') as HTMLElement;
    expect(within(failed).getByTestId('transfer-error').textContent).toBe('The service answered 500 (INTERNAL_ERROR).');
    // Only the page in view was read.
    expect(rowsCalls(bridge).map((c) => c.request)).toEqual([{ offset: 0, limit: 200 }]);
    // The chips count from the totals; the sidebar badge counts what is left.
    const chips = screen.getByRole('group', { name: 'Show' });
    expect(within(chips).getByRole('button', { name: /^All/ }).textContent).toBe('All 100,000');
    expect(within(chips).getByRole('button', { name: /^Failed/ }).textContent).toBe('Failed 1');
    expect(within(chips).getByRole('button', { name: /^Done/ }).textContent).toBe('Done 3');
    expect(screen.getByTestId('transfers-badge').textContent).toBe('99k');
  });

  it('applies a delta to the row it names, once per frame, without reading the list again', async () => {
    bridge.queue.seed(500, 250);
    renderWithBridge(<App />, bridge);
    await waitFor(() => expect(screen.getAllByTestId('transfer-row').length).toBeGreaterThan(5));
    const reads = rowsCalls(bridge).length;
    const id = bridge.queue.rows[1]?.id as string;
    bridge.queue.setRows([id], { state: 'uploading', bytesSent: 5_000, method: 'tus', attempts: 2 });
    act(() => bridge.queue.emitChanges([id], { speedBps: 2_000_000 }));
    act(() => bridge.queue.emitChanges([id], { speedBps: 2_500_000 }));
    await nextFrame();
    const row = screen.getAllByTestId('transfer-row').find((r) => r.textContent?.includes('clip-000001')) as HTMLElement;
    expect(row.dataset.state).toBe('uploading');
    expect(row.textContent).toContain('5.0 KB / 10.0 KB');
    expect(row.textContent).toContain('attempt 2');
    expect(screen.getByTestId('transfer-speed').textContent).toBe('2.5 MB/s');
    // No time promised from the first measurement.
    expect(screen.getByTestId('transfer-eta').textContent).toBe('Estimating…');
    expect(rowsCalls(bridge)).toHaveLength(reads);

    bridge.queue.setRows([id], { state: 'verified', bytesSent: 10_000, note: 'Sent again: the checksum did not match' });
    act(() => bridge.queue.emitChanges([id]));
    await nextFrame();
    await waitFor(() => expect(screen.getByText('Sent again: the checksum did not match')).toBeTruthy());
  });

  it('says what the queue waits for and how many files run at once while the service pushes back', async () => {
    bridge.queue.seed(10, 10, () => 'uploading');
    bridge.queue.settings = { ...bridge.queue.settings, concurrency: 8 };
    renderWithBridge(<App />, bridge);
    await screen.findByTestId('transfer-totals');
    act(() => bridge.queue.emitChanges([], { waitingUntil: '2026-11-25T12:03:10.000Z', effectiveConcurrency: 2, speedBps: 1_000 }));
    await nextFrame();
    await waitFor(() => expect(screen.getByTestId('transfer-eta').textContent).toMatch(/^Waiting for the service until \d\d:\d\d:\d\d/));
    expect(screen.getByTestId('effective-concurrency').textContent).toBe('2 of 8 at once (the service asked to slow down)');
  });

  it('filters by state and searches paths in core', async () => {
    bridge.queue.seed(300, 100, (i) => (i % 100 === 7 ? 'failed' : 'queued'));
    renderWithBridge(<App />, bridge);
    await waitFor(() => expect(screen.getAllByTestId('transfer-row').length).toBeGreaterThan(5));
    fireEvent.click(screen.getByRole('button', { name: /^Failed/ }));
    await waitFor(() => expect(screen.getAllByTestId('transfer-row')).toHaveLength(3));
    expect(rowsCalls(bridge).at(-1)?.request).toEqual({ states: ['failed'], offset: 0, limit: 200 });
    expect(screen.getAllByTestId('transfer-batch')).toHaveLength(3);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search paths' }), { target: { value: 'clip-000107' } });
    await waitFor(() => expect(screen.getAllByTestId('transfer-row')).toHaveLength(1));
    expect(rowsCalls(bridge).at(-1)?.request).toEqual({ states: ['failed'], search: 'clip-000107', offset: 0, limit: 200 });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search paths' }), { target: { value: 'nothing-like-this' } });
    expect(await screen.findByText('No files match')).toBeTruthy();
  });

  it('reads the rows in view again when a delta moves a row out of the filter, or was truncated', async () => {
    bridge.queue.seed(300, 100, (i) => (i % 100 === 7 ? 'failed' : 'queued'));
    renderWithBridge(<App />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: /^Failed/ }));
    await waitFor(() => expect(screen.getAllByTestId('transfer-row')).toHaveLength(3));
    const id = bridge.queue.rows[7]?.id as string;
    bridge.queue.setRows([id], { state: 'queued', error: null });
    act(() => bridge.queue.emitChanges([id]));
    await waitFor(() => expect(screen.getAllByTestId('transfer-row')).toHaveLength(2));
    expect(screen.getByRole('button', { name: /^Failed/ }).textContent).toBe('Failed 2');

    fireEvent.click(screen.getByRole('button', { name: /^All/ }));
    await waitFor(() => expect(screen.getAllByTestId('transfer-row').length).toBeGreaterThan(5));
    const reads = rowsCalls(bridge).length;
    act(() => bridge.emit('transfers:changed', { totals: bridge.queue.totals(), transfers: [], batches: [], rows: [], rowsTruncated: true }));
    await waitFor(() => expect(rowsCalls(bridge).length).toBe(reads + 1));
  });

  it('asks before canceling a file its Assembly waits for, naming what would be sent again; Keep sending changes nothing', async () => {
    bridge.queue.seed(3, 3, () => 'uploading');
    const [a, b, c] = bridge.queue.rows;
    bridge.queue.batches[0] = { ...bridge.queue.batches[0]!, assemblyId: 'f00dfeed0000', state: 'uploading' };
    bridge.queue.setRows([a!.id], { bytesSent: 4_000 });
    bridge.queue.setRows([b!.id], { state: 'verified', bytesSent: 10_000 });
    renderWithBridge(<App />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: `Cancel ${c!.relativePath}` }));
    const dialog = await screen.findByRole('dialog', { name: `Cancel ${c!.relativePath}? 2 other files would be sent again` });
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual([`${a!.relativePath} 4.0 KB of 10.0 KB sent`, `${b!.relativePath} 10.0 KB, sent`]);
    expect(within(dialog).getByTestId('resend-summary').textContent).toContain('14.0 KB already sent thrown away');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep sending' }));
    expect(bridge.queue.rows.map((r) => r.state)).toEqual(['uploading', 'verified', 'uploading']);
    fireEvent.click(screen.getByRole('button', { name: `Cancel ${c!.relativePath}` }));
    const again = await screen.findByRole('dialog', { name: /would be sent again$/ });
    fireEvent.click(within(again).getByRole('button', { name: 'Cancel it and send 2 files again' }));
    await waitFor(() => expect(bridge.calls.filter((x) => x.channel === 'transfers:control').at(-1)?.request).toEqual({ action: 'cancel', scope: { kind: 'files', ids: [c!.id] }, resend: true }));
    expect(bridge.queue.rows[2]?.state).toBe('canceled');
  });

  it('clears finished drops and says how many', async () => {
    bridge.queue.seed(4, 2, () => 'verified');
    bridge.queue.transfers[0] = { ...bridge.queue.transfers[0]!, state: 'done' };
    renderWithBridge(<App />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Clear finished' }));
    expect(await screen.findByText('Cleared 1 finished drop (4 files).')).toBeTruthy();
    expect(await screen.findByText('Nothing is transferring')).toBeTruthy();
  });

  it('retries one failed file, cancels a batch and pauses and resumes everything', async () => {
    bridge.queue.seed(20, 10, (i) => (i === 2 ? 'failed' : 'queued'));
    renderWithBridge(<App />, bridge);
    const failedPath = bridge.queue.rows[2]?.relativePath as string;
    fireEvent.click(await screen.findByRole('button', { name: `Retry ${failedPath}` }));
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'transfers:control')?.request).toEqual({ action: 'retry', scope: { kind: 'files', ids: [bridge.queue.rows[2]?.id] } }));
    await nextFrame();
    await waitFor(() => expect(screen.queryByRole('button', { name: `Retry ${failedPath}` })).toBeNull());

    const second = screen.getAllByTestId('transfer-batch')[1] as HTMLElement;
    fireEvent.click(within(second).getByRole('button', { name: /^Cancel batch/ }));
    await nextFrame();
    await waitFor(() => expect(within(screen.getAllByTestId('transfer-batch')[1] as HTMLElement).getByTestId('batch-state').textContent).toBe('Canceled'));
    expect(bridge.queue.rows.filter((r) => r.state === 'canceled')).toHaveLength(10);

    fireEvent.click(screen.getByRole('button', { name: 'Pause all' }));
    await nextFrame();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Resume all' })).toBeTruthy());
    expect(screen.getByTestId('transfer-eta').textContent).toBe('Paused');
    fireEvent.click(screen.getByRole('button', { name: 'Resume all' }));
    await nextFrame();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pause all' })).toBeTruthy());
  });

  it('selects files with the keyboard (arrows, Shift, Space) and acts on the selection', async () => {
    bridge.queue.seed(50, 50);
    renderWithBridge(<App />, bridge);
    const list = await screen.findByRole('grid', { name: 'Files in the transfer queue' });
    await waitFor(() => expect(within(list).getAllByTestId('transfer-row').length).toBeGreaterThan(5));
    list.focus();
    // Line 0 is the batch header: Down three times lands on the second file, Space selects it, Shift+Down extends.
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    fireEvent.keyDown(list, { key: ' ' });
    fireEvent.keyDown(list, { key: 'ArrowDown', shiftKey: true });
    fireEvent.keyDown(list, { key: 'ArrowDown', shiftKey: true });
    expect(screen.getByText('3 files selected')).toBeTruthy();
    expect(list.getAttribute('aria-activedescendant')).toBe('tline-4');
    expect(within(list).getAllByRole('row', { selected: true })).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'transfers:control')?.request).toEqual({ action: 'pause', scope: { kind: 'files', ids: bridge.queue.rows.slice(1, 4).map((r) => r.id) } }));
    fireEvent.keyDown(list, { key: 'Escape' });
    expect(screen.queryByText(/files selected/)).toBeNull();
  });

  it('acts on the focused batch from the keyboard: P pauses, R resumes, Delete asks then cancels; the bar names it', async () => {
    bridge.queue.seed(20, 10);
    renderWithBridge(<App />, bridge);
    const list = await screen.findByRole('grid', { name: 'Files in the transfer queue' });
    await waitFor(() => expect(within(list).getAllByTestId('transfer-row').length).toBeGreaterThan(5));
    // This queue's batches, not a late update of the previous test's (a throttled event may still land).
    await waitFor(() => expect(within(list).getAllByTestId('transfer-batch')[0]?.textContent).toContain('Files 1–10'));
    // The keys are listed on screen and read with the grid.
    expect(screen.getByText(/resume or retry/).id).toBe(list.getAttribute('aria-describedby'));
    list.focus();
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    const bar = screen.getByTestId('transfer-target');
    const batchId = bridge.queue.batches[0]?.id;
    expect(bar.textContent).toContain('Assembly 1 · Files 1–10');
    const controls = () => bridge.calls.filter((c) => c.channel === 'transfers:control').map((c) => c.request);

    fireEvent.keyDown(list, { key: 'p' });
    await waitFor(() => expect(controls()).toEqual([{ action: 'pause', scope: { kind: 'batch', id: batchId } }]));
    await nextFrame();
    await waitFor(() => expect(within(bar).getByRole('button', { name: 'Resume batch' })).toBeTruthy());
    fireEvent.keyDown(list, { key: 'r' });
    await waitFor(() => expect(controls().at(-1)).toEqual({ action: 'resume', scope: { kind: 'batch', id: batchId } }));
    await nextFrame();

    // Delete asks first (Cancel focused); only the confirmation cancels.
    fireEvent.keyDown(list, { key: 'Delete' });
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the batch Assembly 1 · Files 1–10?' });
    expect(document.activeElement?.textContent).toBe('Keep sending');
    expect(controls().some((c) => (c as { action: string }).action === 'cancel')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel batch' }));
    await waitFor(() => expect(controls().at(-1)).toEqual({ action: 'cancel', scope: { kind: 'batch', id: batchId } }));
    await nextFrame();
    await waitFor(() => expect(within(screen.getAllByTestId('transfer-batch')[0] as HTMLElement).getByTestId('batch-state').textContent).toBe('Canceled'));
    // A canceled batch offers Retry, by key as by the bar's button.
    await waitFor(() => expect(within(bar).getByRole('button', { name: 'Retry batch' })).toBeTruthy());
    fireEvent.keyDown(list, { key: 'R' });
    await waitFor(() => expect(controls().at(-1)).toEqual({ action: 'retry', scope: { kind: 'batch', id: batchId } }));
    // Cancel all asks the same way, and its confirmation cancels every transfer.
    await nextFrame();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel all' }));
    const all = await screen.findByRole('dialog', { name: 'Cancel every transfer?' });
    expect(all.textContent).toContain('Files already done are kept.');
    fireEvent.click(within(all).getByRole('button', { name: 'Cancel all' }));
    await waitFor(() => expect(controls().at(-1)).toEqual({ action: 'cancel', scope: { kind: 'all' } }));
  });

  it('acts on the focused file when nothing is selected, with the bar\'s buttons too', async () => {
    bridge.queue.seed(20, 10);
    renderWithBridge(<App />, bridge);
    const list = await screen.findByRole('grid', { name: 'Files in the transfer queue' });
    await waitFor(() => expect(within(list).getAllByTestId('transfer-row').length).toBeGreaterThan(5));
    list.focus();
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    const file = bridge.queue.rows[0];
    const bar = screen.getByTestId('transfer-target');
    expect(bar.textContent).toContain(file?.relativePath);
    fireEvent.click(within(bar).getByRole('button', { name: 'Pause file' }));
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'transfers:control')?.request).toEqual({ action: 'pause', scope: { kind: 'files', ids: [file?.id] } }));
    // Backspace (Delete on a Mac) on the paused file asks first; "Keep sending" in the question keeps it.
    await nextFrame();
    fireEvent.keyDown(list, { key: 'Backspace' });
    const dialog = await screen.findByRole('dialog', { name: `Cancel ${file?.relativePath}?` });
    expect(within(dialog).queryByRole('button', { name: 'Cancel' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep sending' }));
    expect(bridge.calls.filter((c) => c.channel === 'transfers:control')).toHaveLength(1);
  });

  it('refuses a smallest file larger than the largest at the field, and saves neither', async () => {
    bridge.queue.seed(2, 2);
    bridge.queue.settings = { ...bridge.queue.settings, skip: { ...bridge.queue.settings.skip, maxBytes: 5_000_000 } };
    renderWithBridge(<App />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    const smallest = await screen.findByLabelText('Smallest file');
    fireEvent.change(smallest, { target: { value: '10' } });
    fireEvent.blur(smallest);
    expect(screen.getByText('Larger than the largest file (5 MB): every file would be left out. Not saved.')).toBeTruthy();
    expect(bridge.calls.some((c) => c.channel === 'transfers:saveSettings')).toBe(false);
    fireEvent.change(smallest, { target: { value: '1' } });
    fireEvent.blur(smallest);
    await waitFor(() => expect(bridge.queue.settings.skip.minBytes).toBe(1_000_000));
  });

  it('changes concurrency live from the settings panel and refuses a bad value', async () => {
    bridge.queue.seed(10, 10);
    renderWithBridge(<App />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    const field = await screen.findByLabelText('Files at once');
    fireEvent.focus(field);
    fireEvent.change(field, { target: { value: '40' } });
    expect(screen.getByText('40 is too large: at most 32. Not saved.')).toBeTruthy();
    fireEvent.blur(field);
    expect(bridge.calls.some((c) => c.channel === 'transfers:saveSettings')).toBe(false);
    // Each bad value stays in the field with why, after the field is left too: nothing snaps back silently.
    for (const [typed, why] of [
      ['0', '0 is too small: at least 1. Not saved.'],
      ['-5', '-5 is too small: at least 1. Not saved.'],
      ['abc', '"abc" is not a number: enter a whole number, 1–32. Not saved.'],
      ['99', '99 is too large: at most 32. Not saved.'],
    ] as const) {
      fireEvent.change(field, { target: { value: typed } });
      fireEvent.blur(field);
      expect((field as HTMLInputElement).value).toBe(typed);
      expect(screen.getByText(why)).toBeTruthy();
    }
    expect(bridge.calls.some((c) => c.channel === 'transfers:saveSettings')).toBe(false);
    fireEvent.focus(field);
    fireEvent.change(field, { target: { value: '8' } });
    fireEvent.blur(field);
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'transfers:saveSettings')?.request).toEqual({ concurrency: 8 }));
    expect(bridge.queue.settings.concurrency).toBe(8);
    const limit = screen.getByLabelText('Bandwidth limit');
    fireEvent.focus(limit);
    fireEvent.change(limit, { target: { value: '2.5' } });
    fireEvent.keyDown(limit, { key: 'Enter' });
    await waitFor(() => expect(bridge.queue.settings.bandwidthLimitBps).toBe(2_500_000));
  });

  /** Transfers with its settings panel open. */
  const openSettings = async () => {
    bridge.queue.seed(10, 10);
    renderWithBridge(<App />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    return screen.findByRole('region', { name: 'Transfer settings' });
  };

  it('a setting refused at its field is asked about before Close or leaving Transfers throws it away; Cancel and Stay keep it', async () => {
    const panel = await openSettings();
    const field = (await within(panel).findByLabelText('Files at once')) as HTMLInputElement;
    fireEvent.focus(field);
    fireEvent.change(field, { target: { value: '99' } });
    fireEvent.blur(field);
    // Refused at the field, so not saved: Close asks, and Cancel keeps it with its reason.
    fireEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    await answerDiscard('Cancel');
    expect(field.value).toBe('99');
    expect(screen.getByText('99 is too large: at most 32. Not saved.')).toBeTruthy();
    // Leaving the screen asks through the navigation guard; Stay keeps it.
    await leaveAndStay('the transfer settings', 'transfers');
    expect(field.value).toBe('99');
  });

  it('a skip pattern typed and not sent yet is asked about on Escape; Discard changes closes; a valid value is saved on leaving its field', async () => {
    const panel = await openSettings();
    const only = within(panel).getByLabelText('Only files matching');
    fireEvent.change(only, { target: { value: '*.jpg' } });
    fireEvent.keyDown(only, { key: 'Escape' });
    await answerDiscard('Discard changes');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Transfer settings' })).toBeNull());
    expect(bridge.calls.some((c) => c.channel === 'transfers:saveSettings')).toBe(false);
    expect(useNavigation.getState().unsaved.size).toBe(0);
    // A valid value is saved when the field is left, so Close has nothing to ask.
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const again = (await screen.findByLabelText('Files at once')) as HTMLInputElement;
    fireEvent.focus(again);
    fireEvent.change(again, { target: { value: '8' } });
    fireEvent.blur(again);
    fireEvent.click(within(screen.getByRole('region', { name: 'Transfer settings' })).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Transfer settings' })).toBeNull());
    expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).toBeNull();
    await waitFor(() => expect(bridge.queue.settings.concurrency).toBe(8));
  });

  it('narrows to one batch from a run and back to every batch', async () => {
    bridge.queue.seed(30, 10);
    const batch = bridge.queue.batches[1];
    useNavigation.setState({ route: { name: 'transfers', batchId: batch?.id } });
    renderWithBridge(<App />, bridge);
    expect((await screen.findByTestId('batch-filter')).textContent).toContain('Files 11–20');
    await waitFor(() => expect(screen.getAllByTestId('transfer-row')).toHaveLength(10));
    expect(rowsCalls(bridge).at(-1)?.request).toMatchObject({ batchId: batch?.id });
    fireEvent.click(screen.getByRole('button', { name: 'Show every batch' }));
    await waitFor(() => expect(screen.getAllByTestId('transfer-batch')).toHaveLength(3));
  });

  it('a link to a batch that left the queue (a restart reopened it) says so, with the way back to every batch', async () => {
    bridge.queue.seed(30, 10);
    useNavigation.setState({ route: { name: 'transfers', batchId: 'batch-gone' } });
    renderWithBridge(<App />, bridge);
    expect((await screen.findByTestId('batch-filter')).textContent).toBe('Batch: no longer in the queue');
    expect(await screen.findByText(/This batch is no longer in the queue/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show every batch' }));
    await waitFor(() => expect(screen.getAllByTestId('transfer-batch')).toHaveLength(3));
  });

  it('shows the error code when the queue cannot be read', async () => {
    bridge = createFakeBridge({ 'transfers:overview': () => ({ ok: false, error: { code: 'QUEUE_UNAVAILABLE', message: 'The queue database is locked.' } }) });
    renderWithBridge(<App />, bridge);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('QUEUE_UNAVAILABLE')).toBeTruthy();
  });
});
