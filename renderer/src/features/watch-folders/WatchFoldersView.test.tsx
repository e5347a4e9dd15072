import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeBridge, type FakeBridge } from '../../bridge/test/fake-bridge';
import type { WatchItem } from '../../../../shared/ipc/watch-folder-models';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { WatchFoldersView } from './WatchFoldersView';

describe('WatchFoldersView', () => {
  afterEach(cleanup);

  it('adds a watch from typed folders, pauses it, and removes it after a confirmation', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<WatchFoldersView />, bridge);
    expect(await screen.findByText('No watch folders')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add watch folder' }));
    // Nothing chosen: the dialog says what is missing and sends nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Start watching' }));
    expect(await screen.findByText('Choose the folder to watch and the output folder.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Folder to watch'), { target: { value: '/home/me/in' } });
    fireEvent.change(screen.getByLabelText('Output folder'), { target: { value: '/home/me/out' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start watching' }));

    const card = await screen.findByTestId('watch-card');
    expect(within(card).getByText('/home/me/in')).toBeTruthy();
    expect(within(card).getByTestId('watch-state').textContent).toBe('Watching');
    expect(bridge.calls.find((c) => c.channel === 'watch-folders:add')?.request).toMatchObject({ folder: { path: '/home/me/in' }, output: { path: '/home/me/out' }, recipe: { kind: 'preset', presetId: 'resize-1024' }, settleMs: 2000 });

    fireEvent.click(within(card).getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(within(screen.getByTestId('watch-card')).getByTestId('watch-state').textContent).toBe('Paused'));

    fireEvent.click(within(screen.getByTestId('watch-card')).getByRole('button', { name: 'Remove' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove watch' }));
    expect(await screen.findByText('No watch folders')).toBeTruthy();
  });

  const withWatch = async (bridge: FakeBridge) => {
    await bridge.invoke('watch-folders:add', { folder: { path: '/home/me/in' }, output: { path: '/home/me/out' }, recipe: { kind: 'template', templateId: 'tpl_gone', fields: { size: '512' } }, settleMs: 1500 });
    renderWithBridge(<WatchFoldersView />, bridge);
    fireEvent.click(within(await screen.findByTestId('watch-card')).getByRole('button', { name: 'Edit' }));
    return screen.getByRole('dialog', { name: 'Edit watch folder' });
  };

  it('edits a watch in the add dialog, pre-filled: the folder is fixed, the output folder and after success change, the row shows it at once', async () => {
    const bridge = createFakeBridge();
    const dialog = await withWatch(bridge);
    const folder = within(dialog).getByLabelText('Folder to watch') as HTMLInputElement;
    expect(folder.value).toBe('/home/me/in');
    expect(folder.readOnly).toBe(true);
    expect(within(dialog).getByText('A different folder is a different watch: add it as a new one.')).toBeTruthy();
    expect((within(dialog).getByLabelText('Output folder') as HTMLInputElement).value).toBe('/home/me/out');
    // A Template not in the list (here: none load) stays chosen, with its fields.
    expect((within(dialog).getByLabelText('Process each file with') as HTMLSelectElement).value).toBe('template:tpl_gone');
    expect((within(dialog).getByLabelText('Fields') as HTMLTextAreaElement).value).toBe('size=512');
    expect((within(dialog).getByLabelText('Wait until a file is unchanged for (seconds)') as HTMLInputElement).value).toBe('1.5');
    expect(within(dialog).getByText(/Changes apply to files that arrive or change from now on/)).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('Output folder'), { target: { value: '/home/me/out2' } });
    fireEvent.change(within(dialog).getByLabelText('After a file is processed'), { target: { value: 'delete' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit watch folder' })).toBeNull());
    const card = screen.getByTestId('watch-card');
    expect(within(card).getByText('/home/me/out2')).toBeTruthy();
    expect(within(card).getByText(/Originals deleted after success/)).toBeTruthy();
    // The watched folder is never sent; the unchanged recipe and settle time are.
    expect(bridge.calls.find((c) => c.channel === 'watch-folders:update')?.request).toEqual({ id: 'wf-1', recipe: { kind: 'template', templateId: 'tpl_gone', fields: { size: '512' } }, reprocessStale: false, conflict: 'overwrite', settleMs: 1500, output: { path: '/home/me/out2' }, afterSuccess: { kind: 'delete' } });
  });

  it("shows a refusal at its field and keeps the dialog open with what was typed", async () => {
    const bridge = createFakeBridge({
      'watch-folders:update': () => ({ ok: false, error: { code: 'WATCH_FOLDER_INVALID', message: 'The watched folder cannot lie inside the output folder (results would be processed again).', details: { field: 'output' } } }),
    });
    const dialog = await withWatch(bridge);
    // A local problem first: at the settle time, nothing sent.
    fireEvent.change(within(dialog).getByLabelText('Wait until a file is unchanged for (seconds)'), { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    const settle = within(dialog).getByLabelText('Wait until a file is unchanged for (seconds)');
    expect(document.getElementById(settle.getAttribute('aria-describedby') ?? '')?.textContent).toBe('The settle time is between 0.2 and 600 seconds.');
    expect(bridge.calls.some((c) => c.channel === 'watch-folders:update')).toBe(false);

    fireEvent.change(settle, { target: { value: '2' } });
    fireEvent.change(within(dialog).getByLabelText('Output folder'), { target: { value: '/home/me' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    const output = within(dialog).getByLabelText('Output folder');
    await waitFor(() => expect(output.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(output.getAttribute('aria-describedby') ?? '')?.textContent).toBe('The watched folder cannot lie inside the output folder (results would be processed again). (WATCH_FOLDER_INVALID)');
    expect(settle.getAttribute('aria-invalid')).toBeNull();
    expect((output as HTMLInputElement).value).toBe('/home/me');
    expect(within(screen.getByTestId('watch-card')).getByText('/home/me/out')).toBeTruthy();
    // Changing the field it is about clears the refusal.
    fireEvent.change(output, { target: { value: '/home/me/elsewhere' } });
    expect(output.getAttribute('aria-invalid')).toBeNull();
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('in the Electron host, shows the folders in use and sends only a newly picked one', async () => {
    const base = createFakeBridge();
    const bridge: FakeBridge = { ...base, host: 'electron', pickFolder: async () => ({ ok: true, value: [{ handle: 'picked-1' }] }) };
    const dialog = await withWatch(bridge);
    expect(within(dialog).getByText('/home/me/out')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Choose output folder' }));
    expect(await within(dialog).findByText('New folder chosen')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'watch-folders:update')?.request).toMatchObject({ output: { handle: 'picked-1' } }));
    expect(bridge.calls.find((c) => c.channel === 'watch-folders:update')?.request).not.toHaveProperty('afterSuccess');
  });

  it('sends the policy for a result already there, chosen in the dialog, when adding and when editing; the card names it', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<WatchFoldersView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Add watch folder' }));
    const add = screen.getByRole('dialog', { name: 'Add a watch folder' });
    const policy = within(add).getByRole('radiogroup', { name: 'When a result is already there' });
    // Replace is the default, as before the choice existed; each choice says what it does.
    expect((within(policy).getByRole('radio', { name: 'Replace' }) as HTMLInputElement).checked).toBe(true);
    expect(within(policy).getByRole('radio', { name: 'Keep both' }).getAttribute('aria-describedby')).toBeTruthy();
    expect(within(policy).getByText('A new result is saved as “name (2).ext” beside the earlier one.')).toBeTruthy();
    fireEvent.change(within(add).getByLabelText('Folder to watch'), { target: { value: '/home/me/in' } });
    fireEvent.change(within(add).getByLabelText('Output folder'), { target: { value: '/home/me/out' } });
    fireEvent.click(within(policy).getByRole('radio', { name: 'Keep both' }));
    fireEvent.click(within(add).getByRole('button', { name: 'Start watching' }));
    const card = await screen.findByTestId('watch-card');
    expect(bridge.calls.find((c) => c.channel === 'watch-folders:add')?.request).toMatchObject({ conflict: 'keep-both' });
    expect(within(card).getByText(/new results kept beside earlier ones/)).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Edit' }));
    const edit = screen.getByRole('dialog', { name: 'Edit watch folder' });
    const editPolicy = within(edit).getByRole('radiogroup', { name: 'When a result is already there' });
    expect((within(editPolicy).getByRole('radio', { name: 'Keep both' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(editPolicy).getByRole('radio', { name: 'Skip' }));
    fireEvent.click(within(edit).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit watch folder' })).toBeNull());
    expect(bridge.calls.find((c) => c.channel === 'watch-folders:update')?.request).toMatchObject({ id: 'wf-1', conflict: 'skip' });
    expect(within(screen.getByTestId('watch-card')).getByText(/results already there left as they are/)).toBeTruthy();
  });

  it("says in a file's row when its results were kept beside earlier ones or skipped", async () => {
    const item = (relativePath: string, over: Partial<WatchItem>): WatchItem => ({ relativePath, state: 'done', size: 10, mtimeMs: 1, sha256: null, assemblyId: null, transferId: null, error: null, results: [], keptBeside: [], skippedResults: [], updatedAt: '2026-01-01T00:00:00.000Z', ...over });
    const bridge = createFakeBridge({
      'watch-folders:items': () => ({
        ok: true,
        value: {
          items: [
            item('a.jpg', { results: ['resized/a (2).jpg', 'thumbs/a (2).png'], keptBeside: ['resized/a (2).jpg', 'thumbs/a (2).png'] }),
            item('b.jpg', { skippedResults: ['resized/b.jpg'] }),
            item('c.jpg', { results: ['resized/c.jpg'] }),
          ],
          total: 3,
        },
      }),
    });
    await bridge.invoke('watch-folders:add', { folder: { path: '/home/me/in' }, output: { path: '/home/me/out' }, recipe: { kind: 'preset', presetId: 'resize-1024' } });
    renderWithBridge(<WatchFoldersView />, bridge);
    fireEvent.click(within(await screen.findByTestId('watch-card')).getByRole('button', { name: 'Show files' }));
    const rows = await screen.findAllByTestId('watch-item');
    expect(within(rows[0]!).getByTestId('watch-item-note').textContent).toBe('2 results kept beside earlier ones');
    expect(rows[0]!.textContent).toContain('resized/a (2).jpg, thumbs/a (2).png');
    // Nothing written: the row shows the earlier result still there, and why it did not change.
    expect(within(rows[1]!).getByTestId('watch-item-note').textContent).toBe('skipped: result already there');
    expect(rows[1]!.textContent).toContain('resized/b.jpg');
    expect(within(rows[2]!).queryByTestId('watch-item-note')).toBeNull();
  });
});
