import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
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
});
