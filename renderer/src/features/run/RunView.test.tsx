import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../App';
import { uploadsOnCancel } from './RunView';
import { createFakeBridge, sampleRun, withRun, type FakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useNavigation } from '../../state/navigation-store';
import { resetTransfers } from '../transfers/transfer-store';

const completedStatus = {
  ok: 'ASSEMBLY_COMPLETED',
  assembly_id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  upload_duration: 1.2,
  warnings: [{ level: 'notice', msg: '1 file was skipped by the filter.' }],
  execution_duration: 2.3,
  results: {
    resized: [
      { id: 'r1', name: 'a.jpg', size: 123_456, mime: 'image/jpeg', ssl_url: 'http://127.0.0.1:43210/results/r1/a.jpg', meta: { width: 1024, height: 768 } },
      { id: 'r2', name: 'b.jpg', size: 2_000, mime: 'image/jpeg', url: 'http://127.0.0.1:43210/results/r2/b.jpg', meta: { width: 640, height: 480 } },
    ],
  },
};

describe('Run view', () => {
  let bridge: FakeBridge;
  beforeEach(() => {
    resetTransfers();
    bridge = createFakeBridge();
    useNavigation.setState({ route: { name: 'run', runId: 'run-1' } });
  });
  afterEach(cleanup);

  it('follows live progress events: state, percent, bytes, speed and time left', async () => {
    withRun(bridge, sampleRun());
    renderWithBridge(<App />, bridge);
    await waitFor(() => expect(screen.getByTestId('run-state').textContent).toBe('Uploading'));
    const batch = screen.getByTestId('batch-progress');
    expect(batch.textContent).toContain('0%');
    expect(screen.getAllByTestId('file-row')).toHaveLength(2);

    act(() =>
      bridge.emit('run:progress', {
        runId: 'run-1',
        totals: { bytesTotal: 3000, bytesUploaded: 1500, filesTotal: 2, filesUploaded: 1, speedBps: 1_500_000, etaSeconds: 65 },
        files: [{ fileId: 'f1', relativePath: 'photos/a.jpg', size: 1000, bytesUploaded: 1000, state: 'uploaded' }],
      }),
    );
    // react-query notifies on its next tick.
    await waitFor(() => expect(batch.textContent).toContain('50%'));
    expect(batch.textContent).toContain('1.5 KB of 3.0 KB');
    expect(batch.textContent).toContain('1.5 MB/s');
    expect(batch.textContent).toContain('1 min 05 s left');
    expect(within(batch).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getAllByTestId('file-row')[0]?.textContent).toContain('Uploaded');
  });

  it('shows the service error code and message when the Assembly fails', async () => {
    withRun(bridge, sampleRun({ state: 'ASSEMBLY_EXECUTING', status: { error: 'IMAGE_RESIZE_VALIDATION', message: 'width must be at most 5000', http_code: 400 } }));
    renderWithBridge(<App />, bridge);
    const panel = await screen.findByTestId('run-error');
    expect(within(panel).getByText('IMAGE_RESIZE_VALIDATION').tagName).toBe('CODE');
    expect(panel.textContent).toContain('width must be at most 5000');
    expect(panel.textContent).toContain('HTTP 400');
    expect(screen.getByTestId('run-state').textContent).toBe('Failed');
    expect(screen.queryByRole('button', { name: 'Cancel Assembly…' })).toBeNull();
  });

  it('says at which step and why a failed Assembly failed, with a hint, and never "HTTP 200"', async () => {
    const status = { error: 'INVALID_INPUT_ERROR', message: 'Step "resized" (/image/resize) could use none of its 1 input file(s).', http_code: 200, step: 'resized', reason: 'Empty file' };
    withRun(bridge, sampleRun({ state: 'INVALID_INPUT_ERROR', status }));
    renderWithBridge(<App />, bridge);
    const panel = await screen.findByTestId('run-error');
    expect(panel.textContent).toContain('The Assembly failed at the step "resized"');
    expect(within(panel).getByText('INVALID_INPUT_ERROR').tagName).toBe('CODE');
    expect(within(panel).getByText('resized').tagName).toBe('CODE');
    expect(panel.textContent).toContain('Reason');
    expect(panel.textContent).toContain('No file suited the step');
    expect(panel.textContent).not.toContain('HTTP 200');
  });

  it('says at each file why it produced no result once the Assembly is over', async () => {
    const status = {
      ok: 'ASSEMBLY_COMPLETED',
      uploads: [
        { id: 'u1', name: 'photo.jpg', size: 2048 },
        { id: 'u2', name: 'empty.jpg', size: 0 },
        { id: 'u3', name: 'notes.txt', size: 10 },
      ],
      results: { resized: [{ id: 'r1', name: 'photo.jpg', original_id: 'u1', size: 100, mime: 'image/jpeg' }] },
      warnings: [
        { level: 'warning', msg: 'Step "resized" skipped "empty.jpg": Empty file (0 bytes): nothing to resize', step: 'resized', original_id: 'u2', reason: 'Empty file (0 bytes): nothing to resize' },
        { level: 'warning', msg: 'Step "resized" skipped "notes.txt": Not an image: /image/resize skips text/plain', step: 'resized', original_id: 'u3', reason: 'Not an image: /image/resize skips text/plain' },
      ],
    };
    withRun(bridge, sampleRun({ state: 'ASSEMBLY_COMPLETED', status, files: [] }));
    renderWithBridge(<App />, bridge);
    const rows = await screen.findAllByTestId('upload-outcome');
    expect(rows.map((r) => r.textContent)).toEqual([
      'photo.jpg2.0 KB1 result',
      'empty.jpg0 BNo result: Empty file (0 bytes): nothing to resize (step "resized")',
      'notes.txt10 BNo result: Not an image: /image/resize skips text/plain (step "resized")',
    ]);
    expect(screen.getByRole('heading', { name: /Files/ }).textContent).toContain('3');
    // The banner counts them instead of listing each.
    expect(screen.getByTestId('file-warnings-summary').textContent).toBe('Note: 2 files were skipped by a step; each says why under Files below.');
    expect(screen.getByRole('note', { name: 'Service warnings' }).textContent).not.toContain('notes.txt');
  });

  it('says what canceling keeps and what it loses', () => {
    const totals = { bytesTotal: 0, bytesUploaded: 0, filesTotal: 5, filesUploaded: 2, speedBps: 0, etaSeconds: null };
    expect(uploadsOnCancel(totals)).toBe('The 2 of 5 files already uploaded stay with the Assembly on the service; the other 3 are not sent.');
    expect(uploadsOnCancel({ ...totals, filesUploaded: 5 })).toBe('All 5 files are uploaded and stay with the Assembly on the service.');
    expect(uploadsOnCancel({ ...totals, filesTotal: 1, filesUploaded: 0 })).toBe('The file is not uploaded completely yet; nothing more of it is sent.');
  });

  it('asks before canceling: Cancel in the dialog keeps the run going, confirming cancels it', async () => {
    withRun(bridge, sampleRun());
    renderWithBridge(<App />, bridge);
    const cancel = await screen.findByRole('button', { name: 'Cancel Assembly…' });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    fireEvent.click(cancel);
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this Assembly?' });
    expect(within(dialog).getByTestId('cancel-consequences').textContent).toContain('None of the 2 files is uploaded completely yet; nothing more is sent.');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bridge.calls.some((c) => c.channel === 'runs:cancel')).toBe(false);
    expect(screen.getByTestId('run-state').textContent).toBe('Uploading');

    fireEvent.click(cancel);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Stop the Assembly' }));
    await waitFor(() => expect(screen.getByTestId('run-state').textContent).toBe('Canceled'));
    expect(bridge.calls.filter((c) => c.channel === 'runs:cancel')).toEqual([{ channel: 'runs:cancel', request: { runId: 'run-1' } }]);
    expect(screen.queryByRole('button', { name: 'Cancel Assembly…' })).toBeNull();
  });

  it('lists results by step with size and dimensions, and opens one after downloading it', async () => {
    withRun(bridge, sampleRun({ state: 'ASSEMBLY_COMPLETED', status: completedStatus }));
    renderWithBridge(<App />, bridge);
    const cards = await screen.findAllByTestId('result-card');
    expect(cards).toHaveLength(2);
    expect(cards[0]?.textContent).toContain('123 KB · 1024 × 768');
    expect(screen.getByText('resized')).toBeTruthy();
    expect(screen.getByText('3.5 s')).toBeTruthy(); // upload + execution duration
    expect(screen.getByRole('note', { name: 'Service warnings' }).textContent).toContain('Note: 1 file was skipped by the filter.');

    fireEvent.click(within(cards[0] as HTMLElement).getByRole('button', { name: 'Open a.jpg' }));
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'shell:openPath')).toBe(true));
    const calls = bridge.calls.filter((c) => c.channel === 'results:download' || c.channel === 'shell:openPath');
    expect(calls).toEqual([
      { channel: 'results:download', request: { runId: 'run-1', url: 'http://127.0.0.1:43210/results/r1/a.jpg', name: 'a.jpg' } },
      { channel: 'shell:openPath', request: { path: '/home/me/Downloads/a.jpg' } },
    ]);
  });

  it('copies a result URL and confirms it', async () => {
    withRun(bridge, sampleRun({ state: 'ASSEMBLY_COMPLETED', status: completedStatus }));
    renderWithBridge(<App />, bridge);
    const button = await screen.findByRole('button', { name: 'Copy URL of b.jpg' });
    fireEvent.click(button);
    await waitFor(() => expect(button.textContent).toBe('Copied'));
    expect(await navigator.clipboard.readText()).toBe('http://127.0.0.1:43210/results/r2/b.jpg');
    expect(screen.getByRole('status').textContent).toContain('Copied URL');
  });

  it('shows processing once every byte is up and the service is executing', async () => {
    withRun(
      bridge,
      sampleRun({ state: 'ASSEMBLY_EXECUTING', totals: { bytesTotal: 3000, bytesUploaded: 3000, filesTotal: 2, filesUploaded: 2, speedBps: 0, etaSeconds: null } }),
    );
    renderWithBridge(<App />, bridge);
    const batch = await screen.findByTestId('batch-progress');
    expect(batch.textContent).toContain('100%');
    expect(batch.textContent).toContain('processing on the service');
    expect(within(batch).getByRole('progressbar').getAttribute('aria-valuenow')).toBeNull();
    expect(screen.getByTestId('run-state').textContent).toBe('Processing');
  });

  it('says when a run cannot be loaded, with the code', async () => {
    useNavigation.setState({ route: { name: 'run', runId: 'missing' } });
    renderWithBridge(<App />, bridge);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('NOT_FOUND')).toBeTruthy();
  });

  it('renders a screenful of 2,000 result cards, not all of them', async () => {
    const many = Array.from({ length: 2_000 }, (_, i) => ({ id: `r${i}`, name: `file-${i}.jpg`, size: 1_000, mime: 'image/jpeg', ssl_url: `http://127.0.0.1:43210/results/r${i}.jpg` }));
    withRun(bridge, sampleRun({ state: 'ASSEMBLY_COMPLETED', status: { ...completedStatus, results: { ':original': many } } }));
    renderWithBridge(<App />, bridge);
    const grid = await screen.findByRole('list', { name: 'Results of :original' });
    const cards = within(grid).getAllByTestId('result-card');
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.length).toBeLessThanOrEqual(16);
    expect(cards[0]?.textContent).toContain('file-0.jpg');
    // The grid's height stands for all 1,000 lines of two cards.
    expect((grid.firstElementChild as HTMLElement).style.height).toBe(`${1_000 * 128}px`);
  });

  it('labels the time on the service as storing for a store-only Assembly', async () => {
    const params = JSON.stringify({ steps: { ':original': { robot: '/upload/handle' } } });
    withRun(
      bridge,
      sampleRun({ state: 'ASSEMBLY_UPLOADING', totals: { bytesTotal: 3000, bytesUploaded: 3000, filesTotal: 2, filesUploaded: 2, speedBps: 0, etaSeconds: null }, status: { ok: 'ASSEMBLY_UPLOADING', params } }),
    );
    renderWithBridge(<App />, bridge);
    // Every byte is up: the badge says Processing even though the code still says UPLOADING.
    await waitFor(() => expect(screen.getByTestId('run-state').textContent).toBe('Processing'));
    expect(screen.getByTestId('batch-phase').textContent).toBe('Uploaded · the service is storing the files');
    act(() => bridge.emit('run:updated', { run: sampleRun({ state: 'ASSEMBLY_COMPLETED', totals: { bytesTotal: 3000, bytesUploaded: 3000, filesTotal: 2, filesUploaded: 2, speedBps: 0, etaSeconds: null }, status: { ok: 'ASSEMBLY_COMPLETED', params, execution_duration: 0.4, upload_duration: 1 } }), delta: null }));
    await waitFor(() => expect(screen.getByText('Storing on the service')).toBeTruthy());
    expect(screen.getByTestId('service-time').textContent).toBe('0.4 s');
  });

  it('shows the service\'s execution progress while processing, only for its own Assembly', async () => {
    const assemblyId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const up = { bytesTotal: 3000, bytesUploaded: 3000, filesTotal: 2, filesUploaded: 2, speedBps: 0, etaSeconds: null };
    withRun(bridge, sampleRun({ state: 'ASSEMBLY_EXECUTING', assemblyId, totals: up, status: { ok: 'ASSEMBLY_EXECUTING', assembly_id: assemblyId } }));
    renderWithBridge(<App />, bridge);
    await waitFor(() => expect(screen.getByTestId('batch-phase').textContent).toBe('Uploaded · processing on the service'));
    const batch = screen.getByTestId('batch-progress');
    // Before any progress event the bar is indeterminate.
    expect(within(batch).getByRole('progressbar').getAttribute('aria-valuenow')).toBeNull();
    act(() => bridge.emit('assembly:updated', { assemblyId: 'ffffffffffffffffffffffffffffffff', status: null, progress: { combined: 90, perFile: [], perStep: null } }));
    act(() => bridge.emit('assembly:updated', { assemblyId, status: null, progress: { combined: 43.4, perFile: [], perStep: null } }));
    await waitFor(() => expect(screen.getByTestId('batch-phase').textContent).toBe('Processing 43 % on the service'));
    expect(within(batch).getByRole('progressbar', { name: 'Processing progress' }).getAttribute('aria-valuenow')).toBe('43');
    expect(batch.textContent).toContain('43%');
    expect(screen.queryByTestId('step-progress')).toBeNull();
    // A service that reports per step: each step with its own bar.
    const perStep = [
      { step: ':original', robot: '/upload/handle', state: 'done' as const, progress: 100, filesDone: 2, filesTotal: 2 },
      { step: 'encoded', robot: '/video/encode', state: 'executing' as const, progress: 56, filesDone: 1, filesTotal: 2 },
    ];
    act(() => bridge.emit('assembly:updated', { assemblyId, status: null, progress: { combined: 71, perFile: [], perStep } }));
    await waitFor(() => expect(screen.getByTestId('batch-phase').textContent).toBe('Processing 71 % on the service'));
    expect(screen.getByRole('progressbar', { name: 'Progress of step encoded' }).getAttribute('aria-valuenow')).toBe('56');
    expect(screen.getAllByTestId('step-progress-text').map((t) => t.textContent)).toEqual(['Done · 2 of 2 files', '56 % · 1 of 2 files']);
    // Once it ends, the upload figures again.
    act(() => bridge.emit('run:updated', { run: sampleRun({ state: 'ASSEMBLY_COMPLETED', assemblyId, totals: up, status: { ok: 'ASSEMBLY_COMPLETED', assembly_id: assemblyId } }), delta: null }));
    await waitFor(() => expect(screen.getByTestId('batch-phase').textContent).toBe('Upload finished'));
    expect(within(batch).getByRole('progressbar', { name: 'Upload progress' })).toBeTruthy();
  });

  it('points to Transfers, filtered to its batch, for a run whose files the transfer engine holds', async () => {
    bridge.queue.seed(4, 2);
    const batch = bridge.queue.batches[1];
    if (batch) bridge.queue.batches[1] = { ...batch, runId: 'run-1' };
    withRun(bridge, sampleRun({ files: [] }));
    renderWithBridge(<App />, bridge);
    const note = await screen.findByTestId('files-in-transfers');
    expect(note.textContent).toContain('Files of this Assembly are in Transfers.');
    fireEvent.click(await within(note).findByRole('button', { name: 'Show its files in Transfers' }));
    expect(useNavigation.getState().route).toEqual({ name: 'transfers', batchId: batch?.id });
    await waitFor(() => expect(screen.getAllByTestId('transfer-row')).toHaveLength(2));
  });
});
