import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { err, ok } from '../../../../shared/result';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { answerDiscard } from '../../bridge/test/unsaved-questions';
import { WorkspacesView } from './WorkspacesView';

const KEY = {
  clientId: 'assemblyline-desktop-abc123',
  kid: 'abc123',
  publicJwk: '{\n  "kty": "EC",\n  "crv": "P-256",\n  "x": "xx",\n  "y": "yy"\n}',
  publicPem: '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----',
};

async function openForm(endpoint: string) {
  fireEvent.click(await screen.findByRole('button', { name: 'Add workspace' }));
  fireEvent.change(screen.getByLabelText('Workspace name'), { target: { value: 'Keyed' } });
  fireEvent.change(screen.getByLabelText('API endpoint'), { target: { value: endpoint } });
  return screen.findByTestId('client-key-panel', {}, { timeout: 3000 });
}

describe('Workspaces: sign in with a private key', () => {
  afterEach(cleanup);

  it('generates a key, shows its public half, registers it with the local service in one click and signs in with it', async () => {
    const bridge = createFakeBridge({
      'workspaces:signInAvailable': () => ok({ available: true, privateKeyJwt: true }),
      'workspaces:clientKeyCreate': () => ok(KEY),
      'workspaces:clientKeyRegisterLocal': () => ok({ clientId: KEY.clientId }),
      'workspaces:signIn': () => err('SIGN_IN_CANCELED', 'stopped here'),
    });
    renderWithBridge(<WorkspacesView />, bridge);
    const panel = await openForm('http://127.0.0.1:43210');
    expect(panel.textContent).toContain('accepts client assertions signed with a registered key');
    fireEvent.click(screen.getByLabelText('Sign in with a private key'));
    fireEvent.click(screen.getByRole('button', { name: 'Generate key pair' }));
    expect((await screen.findByTestId('client-key-client-id')).textContent).toBe(KEY.clientId);
    expect(screen.getByTestId('client-key-jwk').textContent).toContain('"kty": "EC"');
    expect(screen.getByTestId('client-key-pem').textContent).toContain('BEGIN PUBLIC KEY');
    expect(screen.getByRole('button', { name: 'Copy JWK' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy PEM' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Register with the local service' }));
    expect((await screen.findByTestId('client-key-registered')).textContent).toContain('Registered with the local service');
    expect(bridge.calls.find((c) => c.channel === 'workspaces:clientKeyRegisterLocal')?.request).toEqual({ kid: KEY.kid });

    fireEvent.click(screen.getByRole('button', { name: 'Sign in with browser' }));
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'workspaces:signIn')?.request).toMatchObject({ name: 'Keyed', clientKeyId: KEY.kid }));
    // Unticking goes back to the app's plain client id.
    fireEvent.click(screen.getByLabelText('Sign in with a private key'));
    expect(screen.queryByTestId('client-key-details')).toBeNull();
  });

  it('on another deployment: says when it does not advertise assertions, and asks for manual registration', async () => {
    const bridge = createFakeBridge({
      'workspaces:signInAvailable': () => ok({ available: true, privateKeyJwt: false }),
      'workspaces:clientKeyCreate': () => ok(KEY),
    });
    renderWithBridge(<WorkspacesView />, bridge);
    const panel = await openForm('https://api.example.com');
    expect(panel.textContent).toContain('does not say it accepts signed client assertions');
    fireEvent.click(screen.getByLabelText('Sign in with a private key'));
    fireEvent.click(screen.getByRole('button', { name: 'Generate key pair' }));
    await screen.findByTestId('client-key-details');
    expect(screen.queryByRole('button', { name: 'Register with the local service' })).toBeNull();
    expect(screen.getByTestId('client-key-details').textContent).toContain("Ask the deployment's admin to register this public key");
  });

  it('deletes the keys a form generated and let go: the one generated again replaces, and all on Cancel', async () => {
    const kids = ['first-kid', 'second-kid'];
    const bridge = createFakeBridge({
      'workspaces:signInAvailable': () => ok({ available: true, privateKeyJwt: true }),
      'workspaces:clientKeyCreate': () => {
        const kid = kids.shift()!;
        return ok({ ...KEY, kid, clientId: `assemblyline-desktop-${kid}` });
      },
    });
    const discarded = () => bridge.calls.filter((c) => c.channel === 'workspaces:clientKeyDiscard').map((c) => c.request);
    renderWithBridge(<WorkspacesView />, bridge);
    await openForm('https://api.example.com');
    const generate = async (clientId: string) => {
      fireEvent.click(screen.getByLabelText('Sign in with a private key'));
      fireEvent.click(screen.getByRole('button', { name: 'Generate key pair' }));
      expect((await screen.findByTestId('client-key-client-id')).textContent).toBe(clientId);
    };
    await generate('assemblyline-desktop-first-kid');
    expect(discarded()).toEqual([]);
    // Unticked, ticked again and generated anew: the first key is no one's any more.
    fireEvent.click(screen.getByLabelText('Sign in with a private key'));
    await generate('assemblyline-desktop-second-kid');
    expect(discarded()).toEqual([{ kid: 'first-kid' }]);

    // The form holds what was typed: Cancel asks first, and discarding lets every generated key go.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await answerDiscard('Discard changes');
    await waitFor(() => expect(screen.queryByTestId('client-key-panel')).toBeNull());
    expect(discarded()).toEqual([{ kid: 'first-kid' }, { kid: 'second-kid' }]);
  });
});
