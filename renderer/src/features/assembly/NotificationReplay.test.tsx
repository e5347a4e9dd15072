import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReceivedWebhook } from '../../../../shared/ipc/webhook-models';
import { App } from '../../App';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useNavigation } from '../../state/navigation-store';

const ID = 'a'.repeat(32);
const TESTER = 'http://127.0.0.1:45678/webhook';
const detail = { ok: true as const, value: { status: { ok: 'ASSEMBLY_COMPLETED', assembly_id: ID, uploads: [], results: {} }, runId: null, replays: [] } };
const webhook = (over: Partial<ReceivedWebhook> = {}): ReceivedWebhook => ({
  id: 'w1',
  receivedAt: '2026-11-25T08:00:00.000Z',
  assemblyId: ID,
  ok: 'ASSEMBLY_COMPLETED',
  error: null,
  contentType: 'application/x-www-form-urlencoded',
  payloadBytes: 2048,
  payload: `{"ok":"ASSEMBLY_COMPLETED","assembly_id":"${ID}"}`,
  problem: null,
  verification: { verified: false, algorithm: 'sha1', reason: 'mismatch', message: 'Wrong signature: it does not match the sha1 HMAC with the key secret of Local.', workspaceId: null },
  ...over,
});

describe('notification replay and the webhook tester in the Assembly detail', () => {
  beforeEach(() => useNavigation.setState({ route: { name: 'assembly', assemblyId: ID } }));
  afterEach(cleanup);

  it('refuses a URL the service would refuse, then replays to the tester URL and shows the outcome at once', async () => {
    const bridge = createFakeBridge({ 'assemblies:get': () => detail });
    renderWithBridge(<App />, bridge);
    const input = await screen.findByRole('textbox', { name: 'Notification replay URL' });
    fireEvent.change(input, { target: { value: 'ftp://example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Replay notification' }));
    expect(await screen.findByText('A notify URL starts with http:// or https://.')).toBeTruthy();
    expect(bridge.calls.some((c) => c.channel === 'assemblies:replayNotification')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Use the webhook tester' }));
    await waitFor(() => expect((input as HTMLInputElement).value).toBe(TESTER));
    // The tester panel appears once it runs.
    expect(await screen.findByTestId('webhook-tester')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Replay notification' }));
    expect((await screen.findByTestId('notification-replay-result')).textContent).toContain('Delivered · HTTP 200');
    expect(bridge.calls.find((c) => c.channel === 'assemblies:replayNotification')?.request).toEqual({ assemblyId: ID, notifyUrl: TESTER });
  });

  it("shows the service's refusal with its code", async () => {
    const bridge = createFakeBridge({
      'assemblies:get': () => detail,
      'assemblies:replayNotification': () => ({ ok: false, error: { code: 'ASSEMBLY_NO_NOTIFY_URL', message: 'No notify_url to replay to.' } }),
    });
    renderWithBridge(<App />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Replay notification' }));
    const error = await screen.findByTestId('notification-replay-error');
    expect(within(error).getByText('ASSEMBLY_NO_NOTIFY_URL')).toBeTruthy();
  });

  it('lists webhooks as they arrive, with why one is not verified and its JSON', async () => {
    const bridge = createFakeBridge({ 'assemblies:get': () => detail, 'webhooks:list': () => ({ ok: true, value: { url: TESTER, received: [] } }) });
    renderWithBridge(<App />, bridge);
    expect((await screen.findByTestId('webhook-tester')).textContent).toContain('Waiting for notifications');
    act(() => bridge.emit('webhooks:received', webhook()));
    const row = await screen.findByTestId('webhook-received');
    expect(within(row).getByTestId('webhook-verified').textContent).toBe('✗ Not verified');
    expect(within(row).getByTestId('webhook-verification').textContent).toContain('Wrong signature');
    expect(row.textContent).toContain('2.0 KB');
    expect(row.querySelector('pre')?.textContent).toContain(`"assembly_id": "${ID}"`);
    act(() => bridge.emit('webhooks:received', webhook({ id: 'w2', verification: { verified: true, algorithm: 'sha384', reason: 'ok', message: 'sha384 signature made with the key of Local.', workspaceId: 'local' } })));
    await waitFor(() => expect(screen.getAllByTestId('webhook-verified').map((b) => b.textContent)).toEqual(['✓ Verified (sha384)', '✗ Not verified']));
  });
});
