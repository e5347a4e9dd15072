import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MirrorProgress } from '../../../../shared/ipc/mirror-models';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { ExportManifestDialog } from './ExportManifestDialog';
import { SaveResultsDialog } from './SaveResultsDialog';

const ok = <T,>(value: T) => ({ ok: true as const, value });
const progress = (over: Partial<MirrorProgress>): MirrorProgress => ({
  mirrorId: 'mirror-1',
  folder: '/home/me/Results',
  state: 'running',
  filesTotal: 4,
  filesDone: 1,
  bytesTotal: 4000,
  bytesDone: 1024,
  written: 1,
  skipped: 0,
  verified: 1,
  failed: 0,
  errors: [],
  ...over,
});

describe('Save results to folder', () => {
  afterEach(cleanup);

  it('asks for a folder first, saves with the chosen layout and policy, shows progress, the summary and Show in folder', async () => {
    let folder: string | null = null;
    const bridge = createFakeBridge({
      'results:mirrorSettings': () => ok({ folder, layout: 'by-step', conflict: 'skip', canChooseFolder: true }),
      'results:chooseMirrorFolder': () => ((folder = '/home/me/Results'), ok({ folder, layout: 'by-step', conflict: 'skip', canChooseFolder: true, canceled: false })),
    });
    renderWithBridge(<SaveResultsDialog open scope={{ kind: 'run', runId: 'run-1' }} what="4 results" onClose={() => undefined} />, bridge);
    const dialog = await screen.findByRole('dialog', { name: 'Save results to folder' });
    await waitFor(() => expect(within(dialog).getByTestId('mirror-folder').textContent).toBe('No folder chosen yet'));
    expect((within(dialog).getByRole('button', { name: 'Save results' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Choose folder…' }));
    await waitFor(() => expect(within(dialog).getByTestId('mirror-folder').textContent).toBe('/home/me/Results'));
    fireEvent.click(within(dialog).getByLabelText(/^One folder per step, no subfolders/));
    fireEvent.click(within(dialog).getByLabelText(/^Keep both/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save results' }));
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'results:mirror')?.request).toEqual({ scope: { kind: 'run', runId: 'run-1' }, layout: 'flat', conflict: 'keep-both' }));

    act(() => bridge.emit('results:mirrorProgress', progress({})));
    await waitFor(() => expect(within(dialog).getByTestId('mirror-progress').textContent).toBe('1 of 4 files · 1.0 KB of 4.0 KB'));
    expect(within(dialog).getByRole('button', { name: 'Stop' })).toBeTruthy();
    // Another mirror's events are not this one's.
    act(() => bridge.emit('results:mirrorProgress', progress({ mirrorId: 'other', filesDone: 4 })));
    expect(within(dialog).getByTestId('mirror-progress').textContent).toBe('1 of 4 files · 1.0 KB of 4.0 KB');

    act(() =>
      bridge.emit(
        'results:mirrorProgress',
        progress({ state: 'done', filesDone: 4, bytesDone: 4000, written: 3, verified: 3, failed: 1, errors: [{ path: 'resized/a.jpg', code: 'RESULT_CHECKSUM_MISMATCH', message: 'The md5 differs.' }] }),
      ),
    );
    await waitFor(() => expect(within(dialog).getByTestId('mirror-summary').textContent).toBe('3 written · 0 skipped · 3 verified · 1 failed'));
    expect(within(dialog).getByTestId('mirror-outcome').textContent).toBe('1 file could not be saved.');
    expect(within(dialog).getByRole('list', { name: 'Files not saved' }).textContent).toContain('RESULT_CHECKSUM_MISMATCH');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show in folder' }));
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'shell:revealPath')?.request).toEqual({ path: '/home/me/Results' }));
  });

  it('says where results go when the host has no folder dialog', async () => {
    const bridge = createFakeBridge({ 'results:mirrorSettings': () => ok({ folder: '/home/me/Downloads/Assemblyline results', layout: 'by-step', conflict: 'skip', canChooseFolder: false }) });
    renderWithBridge(<SaveResultsDialog open scope={{ kind: 'batch', batchId: 'b1' }} what="x" onClose={() => undefined} />, bridge);
    expect(await screen.findByText(/This host shows no folder dialog/)).toBeTruthy();
    expect(screen.getByTestId('mirror-folder').textContent).toBe('/home/me/Downloads/Assemblyline results');
    expect((screen.getByRole('button', { name: 'Change…' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Save results' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('Export manifest', () => {
  afterEach(cleanup);

  it('exports the chosen format and says where the file went until closed; a canceled save dialog keeps it open', async () => {
    let answer: string | null = null;
    let closed = 0;
    const bridge = createFakeBridge({ 'manifest:export': () => ok({ path: answer, assemblies: 2, rows: 5 }) });
    renderWithBridge(<ExportManifestDialog open scope={{ kind: 'assemblies', assemblyIds: ['a'.repeat(32)] }} what="2 Assemblies" onClose={() => closed++} />, bridge);
    const dialog = await screen.findByRole('dialog', { name: 'Export manifest' });
    fireEvent.click(within(dialog).getByLabelText(/^JSON/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export…' }));
    await waitFor(() => expect(bridge.calls.filter((c) => c.channel === 'manifest:export')).toHaveLength(1));
    expect(bridge.calls.find((c) => c.channel === 'manifest:export')?.request).toEqual({ scope: { kind: 'assemblies', assemblyIds: ['a'.repeat(32)] }, format: 'json' });
    expect(closed).toBe(0);
    answer = '/home/me/manifest.json';
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export…' }));
    expect((await within(dialog).findByTestId('manifest-saved')).textContent).toBe('Saved 5 rows to /home/me/manifest.json');
    expect(closed).toBe(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(closed).toBe(1);
  });
});
