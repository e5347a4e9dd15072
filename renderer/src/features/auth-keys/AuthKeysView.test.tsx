import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthKey } from '../../../../shared/ipc/template-models';
import { ALLOWED_SCOPES } from '../../../../shared/api/scopes';
import { err, ok } from '../../../../shared/result';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { answerDiscard } from '../../bridge/test/unsaved-questions';
import { AuthKeysView } from './AuthKeysView';
import { SecretReveal } from './SecretReveal';

const SECRET = '0123456789abcdef0123456789abcdef01234567';
const key = (authKey: string, over: Partial<AuthKey> = {}): AuthKey => ({
  id: `id-${authKey}`,
  authKey,
  description: '',
  isActive: true,
  smartCdn: false,
  scopes: null,
  signatureAlgo: null,
  canShowSecret: true,
  created: null,
  modified: null,
  lastUsed: null,
  ...over,
});

describe('Auth Keys: no lock-out in one click', () => {
  afterEach(cleanup);

  it('deactivating the key this workspace signs with asks first, names it, and says it will lose access', async () => {
    const bridge = createFakeBridge({ 'authKeys:list': () => ok([key('local-key'), key('other-key', { scopes: ['templates:read'] })]) });
    renderWithBridge(<AuthKeysView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Deactivate local-key' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('key-users').textContent).toContain('Local (this computer) (this workspace)');
    expect(within(dialog).getByRole('button', { name: 'Deactivate — this workspace will lose access' })).toBeTruthy();
    expect(within(dialog).getByLabelText('Switch this workspace to')).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Cancel');
    expect(bridge.calls.some((c) => c.channel === 'authKeys:update')).toBe(false);
  });

  it('a key no workspace here uses is deactivated in one click', async () => {
    const bridge = createFakeBridge({
      'authKeys:list': () => ok([key('local-key'), key('other-key')]),
      'authKeys:update': (r) => ok(key('other-key', { isActive: r.isActive ?? true })),
    });
    renderWithBridge(<AuthKeysView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Deactivate other-key' }));
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'authKeys:update')).toBe(true));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('where there is no clipboard, Copy secret offers Reveal instead of an error', async () => {
    const bridge = createFakeBridge({
      'authKeys:list': () => ok([key('other-key')]),
      'authKeys:copySecret': () => err('CLIPBOARD_UNAVAILABLE', 'No clipboard is available here.'),
    });
    renderWithBridge(<AuthKeysView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Copy secret of other-key' }));
    const notice = await screen.findByTestId('no-clipboard');
    fireEvent.click(within(notice).getByRole('button', { name: 'Reveal instead' }));
    expect((await screen.findByRole('dialog')).textContent).toContain('Reveal the secret of other-key');
  });
});

describe('SecretReveal', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('asks first, shows the secret, keeps it out of the query cache, and hides it after the time is up', async () => {
    const bridge = createFakeBridge({ 'authKeys:revealSecret': () => ok({ authKey: 'other-key', secret: SECRET }) });
    let open = true;
    const onClose = () => (open = false);
    const { client } = renderWithBridge(<SecretReveal keyId="id-other-key" authKey="other-key" onClose={onClose} maskAfterMs={200} />, bridge);
    expect(bridge.calls.some((c) => c.channel === 'authKeys:revealSecret')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Reveal secret' }));
    expect((await screen.findByTestId('revealed-secret')).textContent).toBe(SECRET);
    expect(JSON.stringify(client.getQueryCache().getAll().map((q) => q.state.data))).not.toContain(SECRET);
    expect(JSON.stringify(client.getMutationCache().getAll().map((m) => m.state.data))).not.toContain(SECRET);
    await waitFor(() => expect(open).toBe(false), { timeout: 2_000 });
  });

  it('hides the secret when the window loses focus', async () => {
    const bridge = createFakeBridge({ 'authKeys:revealSecret': () => ok({ authKey: 'other-key', secret: SECRET }) });
    let open = true;
    renderWithBridge(<SecretReveal keyId="id-other-key" authKey="other-key" onClose={() => (open = false)} />, bridge);
    fireEvent.click(screen.getByRole('button', { name: 'Reveal secret' }));
    await screen.findByTestId('revealed-secret');
    act(() => void window.dispatchEvent(new Event('blur')));
    expect(open).toBe(false);
  });

  it('the secret leaves the DOM when the Auth Keys screen hides it', async () => {
    const bridge = createFakeBridge({
      'authKeys:list': () => ok([key('other-key')]),
      'authKeys:revealSecret': () => ok({ authKey: 'other-key', secret: SECRET }),
    });
    renderWithBridge(<AuthKeysView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Reveal secret of other-key' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Reveal secret' }));
    await screen.findByTestId('revealed-secret');
    fireEvent.click(screen.getByRole('button', { name: 'Hide secret' }));
    await waitFor(() => expect(document.body.innerHTML).not.toContain(SECRET));
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Reveal secret of other-key');
  });
});

describe('Auth Keys: the key form and the keyboard', () => {
  afterEach(cleanup);

  it('Escape asks before dropping a changed key form, then closes it and returns to New key', async () => {
    const bridge = createFakeBridge({ 'authKeys:list': () => ok([key('other-key')]) });
    renderWithBridge(<AuthKeysView />, bridge);
    const create = await screen.findByRole('button', { name: 'New key' });
    await waitFor(() => expect((create as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(create);
    const description = await screen.findByLabelText('Description');
    expect(document.activeElement).toBe(description);
    fireEvent.change(description, { target: { value: 'CI uploads' } });
    fireEvent.keyDown(description, { key: 'Escape' });
    await answerDiscard('Discard changes');
    expect(screen.queryByRole('form', { name: 'New Auth Key' })).toBeNull();
    expect(document.activeElement).toBe(create);
    expect(bridge.calls.some((c) => c.channel === 'authKeys:create')).toBe(false);
  });

  it('a new key allowed for Smart CDN gets the smart_cdn:sign scope, and says so when it is taken away', async () => {
    const bridge = createFakeBridge({ 'authKeys:list': () => ok([key('other-key')]), 'authKeys:scopes': () => ok([...ALLOWED_SCOPES]) });
    renderWithBridge(<AuthKeysView />, bridge);
    const create = await screen.findByRole('button', { name: 'New key' });
    await waitFor(() => expect((create as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(create);
    const sign = (await screen.findByLabelText('smart_cdn:sign')) as HTMLInputElement;
    expect(sign.checked).toBe(false);
    fireEvent.click(screen.getByLabelText('Allowed for Smart CDN'));
    expect(sign.checked).toBe(true);
    fireEvent.click(sign);
    expect(screen.getByRole('alert').textContent).toContain('Without the smart_cdn:sign scope the service refuses the URLs this key signs');
    fireEvent.click(sign);
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'authKeys:create')).toBe(true));
    const sent = bridge.calls.find((c) => c.channel === 'authKeys:create')!.request as { scopes: string[]; smartCdn: boolean };
    expect(sent).toMatchObject({ smartCdn: true, scopes: expect.arrayContaining(['smart_cdn:sign']) });
    // "Default" leaves the algorithm to the service, whose default (the spec's) is what the form named.
    expect(sent).not.toHaveProperty('signatureAlgo');
    // Each scope says what it allows.
    expect(sign.closest('label')?.textContent).toContain('Sign Smart CDN URLs');
  });

  it('Escape closes an untouched Edit form at once', async () => {
    renderWithBridge(<AuthKeysView />, createFakeBridge({ 'authKeys:list': () => ok([key('other-key')]) }));
    const edit = await screen.findByRole('button', { name: 'Edit other-key' });
    fireEvent.click(edit);
    fireEvent.keyDown(await screen.findByLabelText('Description'), { key: 'Escape' });
    expect(screen.queryByRole('form', { name: 'Edit other-key' })).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(edit);
  });
});

