// Signing in with a private key (client assertions, RFC 7523): the key pair made in core, its public half
// shown and registered with the local service in one click, a browser sign-in with it, a call that works,
// and the private key nowhere in the page or the bridge traffic.
import { clientKeyAccount } from '../../electron/core/sign-in/client-key';
import { expect, test } from '../fixtures/app';
import { screenshotPath } from '../fixtures/paths';

test('a user signs in with a private key: generate, register, approve, and the key stays in the keychain', async ({ ui, running, pageTraffic }) => {
  // The recording desktop (the "system browser") and the vault are the browser host's, in this process.
  if (running.kind !== 'browser-host') throw new Error('client-key-sign-in.spec.ts checks core-side state through the browser host');
  const endpoint = running.app.core.localServiceUrl!;
  await ui.getByRole('button', { name: 'Workspaces' }).click();
  await ui.getByRole('button', { name: 'Add workspace' }).click();
  await ui.getByLabel('Workspace name').fill('Keyed studio');
  await ui.getByLabel('API endpoint').fill(endpoint);
  const box = ui.getByTestId('sign-in-box');
  await expect(box).toContainText('accepts client assertions signed with a registered key');

  await box.getByLabel('Sign in with a private key').check();
  await box.getByRole('button', { name: 'Generate key pair' }).click();
  const clientId = (await box.getByTestId('client-key-client-id').textContent())!;
  expect(clientId).toMatch(/^assemblyline-desktop-[\w-]{16}$/);
  const jwk = JSON.parse((await box.getByTestId('client-key-jwk').textContent())!) as { kty: string; kid: string; d?: string };
  expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256' });
  expect(jwk.d).toBeUndefined();
  await expect(box.getByTestId('client-key-pem')).toContainText('-----BEGIN PUBLIC KEY-----');
  await box.getByRole('button', { name: 'Register with the local service' }).click();
  await expect(box.getByTestId('client-key-registered')).toBeVisible();
  await ui.screenshot({ path: screenshotPath('client-key-sign-in.png'), animations: 'disabled' });

  await box.getByRole('button', { name: 'Sign in with browser' }).click();
  await expect.poll(() => running.desktop.external.length).toBe(1);
  expect(new URL(running.desktop.external[0]!).searchParams.get('client_id')).toBe(clientId);
  const browserTab = await ui.context().newPage();
  await browserTab.goto(running.desktop.external[0]!);
  await expect(browserTab.getByRole('heading')).toContainText(`Allow ${clientId} to use this service?`);
  await browserTab.getByRole('button', { name: 'Allow' }).click();
  await expect(browserTab.getByText('You can close this tab and return to Assemblyline.')).toBeVisible();
  await browserTab.close();

  // A call through the new workspace: its tokens are refreshed with assertions signed in core.
  const row = ui.getByTestId('workspace-row').filter({ hasText: 'Keyed studio' });
  await expect(row).toContainText('Browser sign-in');
  await row.getByRole('button', { name: 'Use Keyed studio' }).click();
  await ui.getByRole('button', { name: 'Auth Keys' }).click();
  await expect(ui.getByTestId('auth-key-row').first()).toContainText('This workspace');

  // The private key is in the keychain, and never reached the page: not in any bridge frame, log line or the DOM.
  const privateJwk = JSON.parse((await running.app.core.vault.get(clientKeyAccount(jwk.kid)))!) as { d: string };
  expect(privateJwk.d.length).toBeGreaterThan(40);
  const seen = [...pageTraffic, await ui.content()].join('\n');
  expect(seen).toContain(jwk.kid);
  expect(seen).not.toContain(privateJwk.d);
});
