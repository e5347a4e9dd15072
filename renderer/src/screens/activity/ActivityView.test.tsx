import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../App';
import { createFakeBridge, sampleRun, withRun } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useNavigation } from '../../state/navigation-store';

describe('Activity view', () => {
  beforeEach(() => useNavigation.setState({ route: { name: 'activity' } }));
  afterEach(cleanup);

  it('invites a first upload when there are no runs', async () => {
    renderWithBridge(<App />, createFakeBridge());
    expect(await screen.findByText('No Assemblies yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Upload files' }));
    expect(useNavigation.getState().route).toEqual({ name: 'upload' });
  });

  it('shows the bridge error code when the list cannot load', async () => {
    renderWithBridge(<App />, createFakeBridge({ 'runs:list': () => ({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'database is locked' } }) }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('INTERNAL_ERROR')).toBeTruthy();
    expect(alert.textContent).toContain('database is locked');
  });

  it('updates a listed run live when its state changes', async () => {
    const bridge = createFakeBridge();
    withRun(bridge, sampleRun());
    renderWithBridge(<App />, bridge);
    const list = await screen.findByRole('list', { name: 'Recent Assemblies' });
    expect(list.textContent).toContain('Uploading');
    bridge.emit('run:updated', { run: sampleRun({ state: 'ASSEMBLY_COMPLETED' }), delta: null });
    await waitFor(() => expect(list.textContent).toContain('Completed'));
  });
});
