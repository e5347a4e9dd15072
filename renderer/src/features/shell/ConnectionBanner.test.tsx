import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../App';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useConnection } from './connection-store';
import { useNavigation } from '../../state/navigation-store';

describe('connection banner and status dot', () => {
  beforeEach(() => {
    useNavigation.setState({ route: { name: 'upload' } });
    useConnection.setState({ hostConnected: true });
  });
  afterEach(cleanup);

  it('turns the dot red and shows "Disconnected" when the host goes away, and reads everything again when it is back', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<App />, bridge);
    await waitFor(() => expect(screen.getByTestId('connection-dot').className).toContain('status-ok'));
    expect(screen.queryByRole('alert', { name: 'Connection' })).toBeNull();

    act(() => bridge.setConnected(false));
    expect((await screen.findByRole('alert', { name: 'Connection' })).textContent).toContain('Disconnected from Assemblyline.');
    expect(screen.getByTestId('connection-dot').className).toContain('status-bad');

    const before = bridge.calls.filter((c) => c.channel === 'app:info').length;
    act(() => bridge.setConnected(true));
    await waitFor(() => expect(screen.queryByRole('alert', { name: 'Connection' })).toBeNull());
    await waitFor(() => expect(bridge.calls.filter((c) => c.channel === 'app:info').length).toBeGreaterThan(before));
    expect(screen.getByTestId('connection-dot').className).toContain('status-ok');
  });

  it('says "Local service restarting…" while the service restarts, and clears when it runs again', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<App />, bridge);
    await waitFor(() => expect(bridge.listenerCount('service:status')).toBeGreaterThan(0));
    act(() => bridge.emit('service:status', { phase: 'restarting', url: 'http://127.0.0.1:43210', restarts: 0, retryInMs: 250, message: 'the local service was ended by SIGKILL' }));
    const banner = await screen.findByRole('alert', { name: 'Connection' });
    expect(banner.textContent).toContain('Local service restarting…');
    expect(screen.getByTestId('connection-dot').className).toContain('status-wait');
    act(() => bridge.emit('service:status', { phase: 'unresponsive', url: 'http://127.0.0.1:43210', restarts: 1, retryInMs: null, message: 'x' }));
    expect((await screen.findByRole('alert', { name: 'Connection' })).textContent).toContain('Local service not responding.');
    act(() => bridge.emit('service:status', { phase: 'running', url: 'http://127.0.0.1:43210', restarts: 1, retryInMs: null, message: null }));
    await waitFor(() => expect(screen.queryByRole('alert', { name: 'Connection' })).toBeNull());
  });

  it('shows an error no request was waiting for as a toast', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<App />, bridge);
    await waitFor(() => expect(bridge.listenerCount('app:error')).toBeGreaterThan(0));
    act(() => bridge.emit('app:error', { code: 'UNHANDLED_REJECTION', message: 'ENAMETOOLONG', at: '2026-11-25T02:00:00.000Z' }));
    expect(await screen.findByText(/UNHANDLED_REJECTION/)).toBeTruthy();
  });
});
