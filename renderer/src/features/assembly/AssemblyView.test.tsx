import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import { App } from '../../App';
import { createFakeBridge, sampleRun } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useNavigation } from '../../state/navigation-store';

const ID = 'a'.repeat(32);
const PARENT = 'b'.repeat(32);
const status = (over: Partial<AssemblyStatus> = {}): AssemblyStatus => ({
  ok: 'ASSEMBLY_COMPLETED',
  assembly_id: ID,
  parent_id: PARENT,
  fields: { client: 'script-a' },
  execution_duration: 1.5,
  uploads: [{ id: 'u1', name: 'beach.jpg', size: 2048, mime: 'image/jpeg', meta: { width: 640, height: 480 } }],
  results: { small: [{ id: 'r1', name: 'beach.jpg', size: 512, mime: 'image/jpeg', ssl_url: 'http://127.0.0.1:1/r/beach.jpg', meta: { width: 32, height: 24 } }] },
  notify_url: 'http://127.0.0.1:9/hook',
  ...over,
});

describe('Assembly detail', () => {
  beforeEach(() => useNavigation.setState({ route: { name: 'assembly', assemblyId: ID } }));
  afterEach(cleanup);

  it('shows state, fields, uploads with meta, results with previews from this Assembly, notification attempts and the raw record', async () => {
    const bridge = createFakeBridge({
      'assemblies:get': () => ({ ok: true, value: { status: status(), runId: null, replays: [] } }),
      'assemblies:notifications': () => ({
        ok: true,
        value: { notifyUrl: 'http://127.0.0.1:9/hook', attempts: [{ url: 'http://127.0.0.1:9/hook', replay: false, attempt: 1, started: '2026/11/25 08:00:00 GMT', duration: 0.01, responseCode: 500, responseData: 'boom', error: null, successful: false }], pending: [] },
      }),
    });
    renderWithBridge(<App />, bridge);
    expect((await screen.findByTestId('assembly-state')).textContent).toBe('Completed');
    expect(screen.getByTestId('assembly-fields').textContent).toContain('script-a');
    expect(screen.getByTestId('upload-meta').textContent).toBe('640 × 480');
    expect(screen.getByTestId('result-card').textContent).toContain('32 × 24');
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'results:thumbnail' && (c.request as { assemblyId?: string }).assemblyId === ID)).toBe(true));
    expect((await screen.findByTestId('notification-attempt')).textContent).toContain('HTTP 500');
    expect(screen.getByTestId('raw-status').textContent).toContain('"assembly_id"');
    fireEvent.click(screen.getByTestId('parent-link'));
    expect(useNavigation.getState().route).toEqual({ name: 'assembly', assemblyId: PARENT });
  });

  it('opens a file\'s details: every field and meta key in its group, the date in local time with UTC on hover, the thumbhash as placeholder', async () => {
    const upload = {
      id: 'u1', name: 'beach.jpg', size: 2048, mime: 'image/jpeg', type: 'image', md5hash: 'f'.repeat(32), sha256: 'e'.repeat(64), ssl_url: 'http://127.0.0.1:1/u/beach.jpg',
      thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw', exec_time: 0.05, is_temp_url: false,
      meta: { width: 640, height: 480, iso: 200, latitude: 1.5, date_recorded: '2024/06/01 10:00:00 GMT', date_file_modified: null, odd_key: 7 },
    };
    // The preview never arrives here: the placeholder is what the user sees.
    const bridge = createFakeBridge({
      'assemblies:get': () => ({ ok: true, value: { status: status({ uploads: [upload], results: {} }), runId: null, replays: [] } }),
      'results:thumbnail': () => new Promise(() => {}),
    });
    renderWithBridge(<App />, bridge);
    const toggle = await screen.findByRole('button', { name: 'Details of beach.jpg' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    const panel = await screen.findByTestId('file-details');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const groups = within(panel).getAllByTestId('file-detail-group').map((g) => g.getAttribute('data-group'));
    expect(groups).toEqual(['File', 'Image', 'Camera', 'Location', 'Dates', 'Hashes', 'Other']);
    const detail = (key: string) => within(panel).getAllByTestId('file-detail').find((d) => d.getAttribute('data-key') === key)!;
    expect(detail('sha256').textContent).toContain('e'.repeat(64));
    expect(detail('odd_key').textContent).toContain('7');
    const recorded = detail('date_recorded').querySelector('dd')!;
    expect(recorded.getAttribute('title')).toBe('2024-06-01 10:00:00 UTC');
    expect(recorded.textContent).toContain('2024');
    expect(detail('date_file_modified').textContent).toContain('—');
    const thumb = within(panel).getByTestId('thumb');
    expect(thumb.getAttribute('data-preview')).toBe('thumbhash');
    expect(within(panel).getByTestId('thumbhash-placeholder').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    fireEvent.click(toggle);
    expect(screen.queryByTestId('file-details')).toBeNull();
  });

  it('shows a failed Assembly with its code and message', async () => {
    renderWithBridge(<App />, createFakeBridge({ 'assemblies:get': () => ({ ok: true, value: { status: status({ ok: null, error: 'INVALID_INPUT_ERROR', message: 'No file suited the step.' }), runId: null, replays: [] } }) }));
    const panel = await screen.findByTestId('assembly-error');
    expect(within(panel).getByText('INVALID_INPUT_ERROR')).toBeTruthy();
    expect(panel.textContent).toContain('No file suited the step.');
  });

  it('cancels a running Assembly after asking: Cancel in the dialog keeps it going, confirming stops it', async () => {
    const bridge = createFakeBridge({
      'assemblies:get': () => ({ ok: true, value: { status: status({ ok: 'ASSEMBLY_EXECUTING', results: {} }), runId: null, replays: [] } }),
      'assemblies:follow': () => ({ ok: true, value: { following: true } }),
      'assemblies:cancel': () => ({ ok: true, value: status({ ok: 'ASSEMBLY_CANCELED', results: {} }) }),
    });
    renderWithBridge(<App />, bridge);
    const cancel = await screen.findByRole('button', { name: 'Cancel Assembly…' });
    fireEvent.click(cancel);
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this Assembly?' });
    expect(within(dialog).getByTestId('cancel-consequences').textContent).toContain('Files still on their way to it are refused');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bridge.calls.some((c) => c.channel === 'assemblies:cancel')).toBe(false);
    expect(screen.getByTestId('assembly-state').textContent).toBe('Processing');

    fireEvent.click(cancel);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Stop the Assembly' }));
    await waitFor(() => expect(screen.getByTestId('assembly-state').textContent).toBe('Canceled'));
    expect(bridge.calls.filter((c) => c.channel === 'assemblies:cancel')).toEqual([{ channel: 'assemblies:cancel', request: { assemblyId: ID } }]);
    expect(screen.queryByRole('button', { name: 'Cancel Assembly…' })).toBeNull();
  });

  it('says so when the Assembly had already ended by the time Cancel reached it, and shows a refusal with its code', async () => {
    let answer: 'ended' | 'refused' = 'ended';
    let ended = false;
    const running = status({ ok: 'ASSEMBLY_UPLOADING', results: {} });
    const bridge = createFakeBridge({
      'assemblies:get': () => ({ ok: true, value: { status: ended ? status() : running, runId: 'run-1', replays: [] } }),
      // This app's run: its totals say what canceling does to its files; its status is the live one.
      'runs:get': () => ({ ok: true, value: sampleRun({ assemblyId: ID, status: ended ? status() : running, state: ended ? 'ASSEMBLY_COMPLETED' : 'ASSEMBLY_UPLOADING', totals: { bytesTotal: 3000, bytesUploaded: 1000, filesTotal: 3, filesUploaded: 1, speedBps: 0, etaSeconds: null } }) }),
      'assemblies:cancel': () => {
        if (answer === 'refused') return { ok: false, error: { code: 'INSUFFICIENT_AUTH_SCOPE', message: 'The token lacks assemblies:write.', httpCode: 403 } };
        ended = true;
        return { ok: true, value: status() };
      },
    });
    renderWithBridge(<App />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel Assembly…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this Assembly?' });
    // Started by this app: its own count of what is up and what is not sent.
    await waitFor(() => expect(within(dialog).getByTestId('cancel-consequences').textContent).toContain('The 1 of 3 files already uploaded stay with the Assembly on the service; the other 2 are not sent.'));
    answer = 'refused';
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop the Assembly' }));
    const refused = await screen.findByText('Could not cancel');
    expect(refused.closest('.error-panel')?.textContent).toContain('INSUFFICIENT_AUTH_SCOPE');
    expect(screen.getByTestId('assembly-state').textContent).toBe('Uploading');

    answer = 'ended';
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Assembly…' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Stop the Assembly' }));
    await waitFor(() => expect(screen.getByTestId('assembly-state').textContent).toBe('Completed'));
    expect(await screen.findByText('It had already ended (completed): nothing was canceled.')).toBeTruthy();
  });

  /** The view of a running Assembly, once it follows it. */
  const renderFollowing = async () => {
    const bridge = createFakeBridge({
      'assemblies:get': () => ({ ok: true, value: { status: status({ ok: 'ASSEMBLY_EXECUTING', results: {} }), runId: null, replays: [] } }),
      'assemblies:follow': () => ({ ok: true, value: { following: true } }),
    });
    renderWithBridge(<App />, bridge);
    expect((await screen.findByTestId('assembly-state')).textContent).toBe('Processing');
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'assemblies:follow')).toBe(true));
    return bridge;
  };

  it('follows a running Assembly live: status and execution progress', async () => {
    const bridge = await renderFollowing();
    expect(screen.getByRole('button', { name: 'Replay…' }).hasAttribute('disabled')).toBe(true);
    bridge.emit('assembly:updated', { assemblyId: ID, status: null, progress: { combined: 40, perFile: [{ originalId: 'u1', progress: 40 }], perStep: null } });
    await waitFor(() => expect(screen.getByTestId('execution-progress').textContent).toContain('40 %'));
    bridge.emit('assembly:updated', { assemblyId: ID, status: status(), progress: null });
    await waitFor(() => expect(screen.getByTestId('assembly-state').textContent).toBe('Completed'));
  });

  it('says a rate-limited status check is a wait that counts down, not an error, and when the update stream dropped', async () => {
    const bridge = await renderFollowing();
    expect(screen.queryByTestId('follow-note')).toBeNull();
    bridge.emit('assembly:updated', { assemblyId: ID, status: null, progress: null, follow: { via: 'stream', reason: null, rateLimitedMs: 4_200 } });
    const note = await screen.findByTestId('follow-note');
    expect(note.textContent).toMatch(/^waiting [1-5] s \(rate limited\)$/);
    expect(screen.getByTestId('assembly-state').textContent).toBe('Processing');
    expect(screen.queryByRole('alert')).toBeNull();
    bridge.emit('assembly:updated', { assemblyId: ID, status: null, progress: null, follow: { via: 'polling', reason: 'stream-dropped', rateLimitedMs: null } });
    await waitFor(() => expect(screen.getByTestId('follow-note').textContent).toBe('update stream dropped · checking every 2 s'));
    bridge.emit('assembly:updated', { assemblyId: ID, status: null, progress: null, follow: { via: 'stream', reason: null, rateLimitedMs: null } });
    await waitFor(() => expect(screen.queryByTestId('follow-note')).toBeNull());
    bridge.emit('assembly:updated', { assemblyId: ID, status: null, progress: null, follow: { via: 'polling', reason: 'stream-stalled', rateLimitedMs: null } });
    await waitFor(() => expect(screen.getByTestId('follow-note').textContent).toBe('update stream silent · checking every 2 s'));
    bridge.emit('assembly:updated', { assemblyId: ID, status: status(), progress: null });
    await waitFor(() => expect(screen.getByTestId('assembly-state').textContent).toBe('Completed'));
    expect(screen.queryByTestId('follow-note')).toBeNull();
  });

  it('shows each step with its own bar while it runs (the service\'s per-step progress), then every step done', async () => {
    const params = JSON.stringify({ steps: { encoded: { use: ':original', robot: '/video/encode' }, thumbs: { use: 'encoded', robot: '/video/thumbs' } } });
    const bridge = createFakeBridge({
      'assemblies:get': () => ({ ok: true, value: { status: status({ ok: 'ASSEMBLY_EXECUTING', params, results: {} }), runId: null, replays: [] } }),
      'assemblies:follow': () => ({ ok: true, value: { following: true } }),
    });
    renderWithBridge(<App />, bridge);
    const stateOf = (step: string) => screen.getAllByTestId('step-progress').find((r) => r.dataset.step === step)?.dataset.state;
    // Before any progress event: derived from the record only — no numbers for steps not known.
    await waitFor(() => expect(screen.getAllByTestId('step-progress').map((r) => r.dataset.step)).toEqual([':original', 'encoded', 'thumbs']));
    expect(stateOf('encoded')).toBe('unknown');
    expect(screen.queryByRole('progressbar', { name: 'Progress of step encoded' })).toBeNull();
    const perStep = (encode: number) => [
      { step: ':original', robot: '/upload/handle', state: 'done' as const, progress: 100, filesDone: 1, filesTotal: 1 },
      { step: 'encoded', robot: '/video/encode', state: 'executing' as const, progress: encode, filesDone: 0, filesTotal: 1 },
      { step: 'thumbs', robot: '/video/thumbs', state: 'waiting' as const, progress: 0, filesDone: 0, filesTotal: 0 },
    ];
    bridge.emit('assembly:updated', { assemblyId: ID, status: null, progress: { combined: 45, perFile: [{ originalId: 'u1', progress: 45 }], perStep: perStep(35) } });
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Progress of step encoded' }).getAttribute('aria-valuenow')).toBe('35'));
    expect(stateOf('thumbs')).toBe('waiting');
    expect(screen.getByRole('progressbar', { name: 'Processing of beach.jpg' }).getAttribute('aria-valuenow')).toBe('45');
    bridge.emit('assembly:updated', { assemblyId: ID, status: null, progress: { combined: 60, perFile: [], perStep: perStep(80) } });
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Progress of step encoded' }).getAttribute('aria-valuenow')).toBe('80'));
    bridge.emit('assembly:updated', { assemblyId: ID, status: status({ params, results: {} }), progress: null });
    await waitFor(() => expect(screen.getAllByTestId('step-progress').map((r) => r.dataset.state)).toEqual(['done', 'done', 'done']));
  });

  it('saves or lists the results of any ended Assembly, and opens a result without downloading it twice', async () => {
    const bridge = createFakeBridge({
      'assemblies:get': () => ({ ok: true, value: { status: status(), runId: null, replays: [] } }),
      'results:download': (req) => ({ ok: true, value: { path: `/dl/${req.name}` } }),
    });
    renderWithBridge(<App />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Save results to folder…' }));
    expect(await screen.findByRole('dialog', { name: 'Save results to folder' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export manifest…' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open beach.jpg' }));
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'shell:openPath')?.request).toEqual({ path: '/dl/beach.jpg' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show in folder: beach.jpg' }));
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'shell:revealPath')?.request).toEqual({ path: '/dl/beach.jpg' }));
    expect(bridge.calls.filter((c) => c.channel === 'results:download').map((c) => c.request)).toEqual([{ assemblyId: ID, url: 'http://127.0.0.1:1/r/beach.jpg', name: 'beach.jpg' }]);
  });

  it("one of this app's runs: each file with where it was sent from and how far, the upload it became, and the upload in the live line", async () => {
    const running = status({ ok: 'ASSEMBLY_UPLOADING', results: {}, uploads: [{ id: 'u1', name: 'a.jpg', size: 1000, mime: 'image/jpeg', meta: { width: 64, height: 48 } }] });
    const bridge = createFakeBridge({
      'assemblies:get': () => ({ ok: true, value: { status: running, runId: 'run-1', replays: [] } }),
      'runs:get': () => ({
        ok: true,
        value: sampleRun({
          assemblyId: ID,
          status: running,
          totals: { bytesTotal: 3000, bytesUploaded: 2000, filesTotal: 2, filesUploaded: 1, speedBps: 1000, etaSeconds: 1 },
          files: [
            { fileId: 'f1', relativePath: 'photos/a.jpg', size: 1000, bytesUploaded: 1000, state: 'uploaded' },
            { fileId: 'f2', relativePath: 'photos/b.jpg', size: 2000, bytesUploaded: 1000, state: 'uploading' },
          ],
        }),
      }),
    });
    renderWithBridge(<App />, bridge);
    expect(await screen.findByTestId('started-here')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(2));
    const rows = screen.getAllByTestId('file-row');
    expect(rows.map((r) => r.querySelector('.asm-file-name')?.textContent)).toEqual(['photos/a.jpg', 'photos/b.jpg']);
    expect(within(rows[0]!).getByTestId('upload-meta').textContent).toBe('64 × 48');
    expect(within(rows[1]!).getByTestId('file-sending').textContent).toContain('Uploading 50 %');
    expect(screen.getByRole('progressbar', { name: 'Upload of photos/b.jpg' }).getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByTestId('execution-progress').dataset.phase).toBe('uploading');
    expect(screen.getByTestId('live-line').textContent).toContain('1 of 2 files');
    // No follow of its own: core's run watcher keeps this app's run live.
    expect(bridge.calls.some((c) => c.channel === 'assemblies:follow')).toBe(false);
  });

  it('where the service reports no progress: a moving bar with how long it runs and the results so far, and each step as the record tells', async () => {
    const params = JSON.stringify({ steps: { small: { use: ':original', robot: '/image/resize' }, thumbs: { use: 'small', robot: '/image/resize' } } });
    const bridge = createFakeBridge({
      'assemblies:get': () => ({ ok: true, value: { status: status({ ok: 'ASSEMBLY_EXECUTING', params, execution_start: new Date(Date.now() - 65_000).toISOString() }), runId: null, replays: [] } }),
      'assemblies:follow': () => ({ ok: true, value: { following: true } }),
    });
    renderWithBridge(<App />, bridge);
    const line = await screen.findByTestId('live-line');
    expect(line.textContent).toMatch(/Processing on the service · running 1 min 0\d s · 1 result so far · this service reports no progress/);
    expect(screen.getByRole('progressbar', { name: 'Processing progress' }).hasAttribute('aria-valuenow')).toBe(false);
    const step = (name: string) => screen.getAllByTestId('step-progress').find((r) => r.dataset.step === name)!;
    expect(step('small').dataset.state).toBe('done');
    expect(within(step('small')).getByTestId('step-results').textContent).toBe('1 result');
    expect(within(step('thumbs')).getByTestId('step-progress-text').textContent).toBe('Not reported');
  });

  it('a failed step says which and why, in the pipeline and in the error panel', async () => {
    const params = JSON.stringify({ steps: { small: { use: ':original', robot: '/image/resize' }, encoded: { use: ':original', robot: '/video/encode' } } });
    renderWithBridge(
      <App />,
      createFakeBridge({
        'assemblies:get': () => ({ ok: true, value: { status: status({ ok: null, error: 'INVALID_INPUT_ERROR', message: 'No file suited the step.', step: 'encoded', reason: 'Not a video', params }), runId: null, replays: [] } }),
      }),
    );
    const failed = await waitFor(() => screen.getAllByTestId('step-progress').find((r) => r.dataset.state === 'failed')!);
    expect(failed.dataset.step).toBe('encoded');
    expect(within(failed).getByTestId('step-error').textContent).toBe('INVALID_INPUT_ERROR Not a video');
    expect(screen.getByTestId('assembly-error').textContent).toContain('The Assembly failed at the step "encoded"');
  });

  it('replays with new steps, refusing broken JSON first, and opens the new Assembly', async () => {
    const bridge = createFakeBridge({ 'assemblies:get': () => ({ ok: true, value: { status: status(), runId: null, replays: [] } }) });
    renderWithBridge(<App />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Replay…' }));
    fireEvent.click(screen.getByLabelText('With new steps'));
    const editor = screen.getByLabelText('New steps (JSON)');
    fireEvent.change(editor, { target: { value: '{ "tiny": }' } });
    fireEvent.click(screen.getByRole('button', { name: 'Replay' }));
    expect((await screen.findByTestId('replay-steps-error')).textContent).toMatch(/line 1/);
    expect(bridge.calls.some((c) => c.channel === 'assemblies:replay')).toBe(false);
    fireEvent.change(editor, { target: { value: '{ "tiny": { "robot": "/image/resize", "use": ":original", "width": 16 } }' } });
    fireEvent.click(screen.getByRole('button', { name: 'Replay' }));
    await waitFor(() => expect(useNavigation.getState().route).toEqual({ name: 'assembly', assemblyId: 'f'.repeat(32) }));
    expect(bridge.calls.find((c) => c.channel === 'assemblies:replay')?.request).toEqual({ assemblyId: ID, steps: { tiny: { robot: '/image/resize', use: ':original', width: 16 } } });
  });
});

describe('#/run/<id>', () => {
  afterEach(cleanup);

  it("becomes its Assembly's view once the run has its Assembly, replacing the entry", async () => {
    useNavigation.setState({ route: { name: 'run', runId: 'run-1' } });
    const bridge = createFakeBridge({
      'runs:get': () => ({ ok: true, value: sampleRun({ assemblyId: ID, status: status() }) }),
      'assemblies:get': () => ({ ok: true, value: { status: status(), runId: 'run-1', replays: [] } }),
    });
    renderWithBridge(<App />, bridge);
    await waitFor(() => expect(useNavigation.getState().route).toEqual({ name: 'assembly', assemblyId: ID }));
    expect((await screen.findByTestId('assembly-state')).textContent).toBe('Completed');
  });

  it('a run whose Assembly the service never created says why', async () => {
    useNavigation.setState({ route: { name: 'run', runId: 'run-1' } });
    renderWithBridge(<App />, createFakeBridge({ 'runs:get': () => ({ ok: true, value: sampleRun({ assemblyId: null, state: 'INVALID_SIGNATURE', error: { code: 'INVALID_SIGNATURE', message: 'The signature did not match.' } }) }) }));
    const panel = await screen.findByTestId('assembly-error');
    expect(panel.textContent).toContain('The service did not create the Assembly');
    expect(panel.textContent).toContain('INVALID_SIGNATURE');
  });
});
