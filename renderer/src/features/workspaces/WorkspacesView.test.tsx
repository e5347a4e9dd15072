import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Workspace } from '../../../../shared/ipc/models';
import { err, ok } from '../../../../shared/result';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { answerDiscard } from '../../bridge/test/unsaved-questions';
import { WorkspacesView } from './WorkspacesView';

const local = (over: Partial<Workspace> = {}): Workspace => ({
  id: 'local',
  name: 'Local (this computer)',
  kind: 'local',
  endpoint: 'http://127.0.0.1:43210',
  authKey: 'own-key-0000000000',
  hasSecret: true,
  slug: 'local',
  authMode: 'signature',
  signatureAlgo: 'sha384',
  tokenScopes: null,
  accessProblem: null,
  ...over,
});

describe('Workspaces: Local can always get back in', () => {
  afterEach(cleanup);

  it('shows why Local has no full access and restores it on request', async () => {
    let restored = false;
    const bridge = createFakeBridge({
      'workspaces:list': () => ok([local({ accessProblem: restored ? null : "The local service's full-access key own-key-0000… is inactive, so the app cannot use it." })]),
      'workspaces:restoreLocalAccess': () => {
        restored = true;
        return ok({ action: 'reactivated', authKey: 'own-key-0000000000', scopeLimitLifted: false });
      },
    });
    renderWithBridge(<WorkspacesView />, bridge);
    expect((await screen.findByTestId('access-problem')).textContent).toMatch(/is inactive/);
    fireEvent.click(screen.getByRole('button', { name: 'Restore full access of Local' }));
    await waitFor(() => expect(screen.queryByTestId('access-problem')).toBeNull());
  });

  it('switches Local to another active key of its service, listing only those', async () => {
    const bridge = createFakeBridge({
      'workspaces:list': () => ok([local()]),
      'workspaces:keyChoices': () =>
        ok([
          { id: 'k-own', authKey: 'own-key-0000000000', description: '', isActive: true, scopes: null, fullScope: true },
          { id: 'k-off', authKey: 'off-key-0000000000', description: 'old', isActive: false, scopes: null, fullScope: true },
          { id: 'k-up', authKey: 'upl-key-0000000000', description: 'uploads', isActive: true, scopes: ['assemblies:write'], fullScope: false },
        ]),
      'workspaces:switchKey': (r) => (r.keyId === 'k-up' ? ok(local({ authKey: 'upl-key-0000000000' })) : err('AUTH_KEY_INACTIVE', 'inactive')),
    });
    renderWithBridge(<WorkspacesView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Switch key of Local (this computer)' }));
    const select = await screen.findByLabelText('New key');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['upl-key-0000… · assemblies:write · uploads']);
    fireEvent.click(screen.getByRole('button', { name: 'Switch key' }));
    await waitFor(() => expect(bridge.calls.find((c) => c.channel === 'workspaces:switchKey')?.request).toEqual({ id: 'local', keyId: 'k-up' }));
  });
});

describe('Workspaces: the inline form and the keyboard', () => {
  afterEach(cleanup);

  it('Escape closes an untouched form at once and gives the focus back to the button that opened it', async () => {
    renderWithBridge(<WorkspacesView />, createFakeBridge({ 'workspaces:list': () => ok([local()]) }));
    const add = await screen.findByRole('button', { name: 'Add workspace' });
    add.focus();
    fireEvent.click(add);
    const form = await screen.findByRole('form', { name: 'Add a workspace' });
    // The form takes the focus, so Escape (and Tab) work from inside it.
    expect(document.activeElement).toBe(screen.getByLabelText('Workspace name'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    expect(form.isConnected).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(add);
  });

  it("a remote workspace's Test pane closes with Escape or Close and gives the focus back to Test", async () => {
    const remote = local({ id: 'r1', name: 'Staging', kind: 'remote', endpoint: 'https://api.example.com' });
    renderWithBridge(<WorkspacesView />, createFakeBridge({ 'workspaces:list': () => ok([local(), remote]) }));
    const testButton = await screen.findByRole('button', { name: 'Test Staging' });
    testButton.focus();
    fireEvent.click(testButton);
    const pane = await screen.findByTestId('workspace-test-pane');
    expect(pane.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    expect(pane.isConnected).toBe(false);
    expect(document.activeElement).toBe(testButton);
    fireEvent.click(testButton);
    fireEvent.click(within(await screen.findByTestId('workspace-test-pane')).getByRole('button', { name: 'Close' }));
    expect(screen.queryByTestId('workspace-test-pane')).toBeNull();
    expect(document.activeElement).toBe(testButton);
  });

  it('Escape on a changed form asks first: Cancel keeps what was typed, Discard closes it', async () => {
    renderWithBridge(<WorkspacesView />, createFakeBridge({ 'workspaces:list': () => ok([local()]) }));
    const add = await screen.findByRole('button', { name: 'Add workspace' });
    fireEvent.click(add);
    const name = await screen.findByLabelText('Workspace name');
    fireEvent.change(name, { target: { value: 'Production' } });
    fireEvent.keyDown(name, { key: 'Escape' });

    const dialog = await screen.findByRole('dialog', { name: 'Discard your changes?' });
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((screen.getByLabelText('Workspace name') as HTMLInputElement).value).toBe('Production');
    expect(document.activeElement).toBe(screen.getByLabelText('Workspace name'));

    fireEvent.keyDown(screen.getByLabelText('Workspace name'), { key: 'Escape' });
    await answerDiscard('Discard changes');
    expect(screen.queryByRole('form', { name: 'Add a workspace' })).toBeNull();
    expect(document.activeElement).toBe(add);
  });

  it('Escape closes Switch key and returns to its row button', async () => {
    renderWithBridge(<WorkspacesView />, createFakeBridge({ 'workspaces:list': () => ok([local()]), 'workspaces:keyChoices': () => ok([]) }));
    const open = await screen.findByRole('button', { name: 'Switch key of Local (this computer)' });
    fireEvent.click(open);
    const form = await screen.findByRole('form', { name: 'Switch key of Local (this computer)' });
    fireEvent.keyDown(within(form).getByRole('button', { name: 'Cancel' }), { key: 'Escape' });
    expect(screen.queryByRole('form', { name: 'Switch key of Local (this computer)' })).toBeNull();
    expect(document.activeElement).toBe(open);
  });
});


describe('Workspaces: a company CA file', () => {
  afterEach(cleanup);

  it('a picked file that is no CA is refused at the field with its code, nothing typed is lost; a CA file is named and saved with the workspace', async () => {
    const bridge = createFakeBridge({
      'workspaces:list': () => ok([local()]),
      'workspaces:readCaFile': ({ handle }) =>
        handle === 'fh-ca.pem'
          ? ok({ pem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', subject: 'Company Root CA', validTo: '2031-01-01T00:00:00.000Z' })
          : err('CA_FILE_INVALID', 'The CA file holds no certificate: choose the PEM file (-----BEGIN CERTIFICATE-----) of the certificate authority.'),
      'workspaces:save': (input) => ok(local({ id: 'ws-1', kind: 'remote', name: input.name, endpoint: input.endpoint })),
    });
    renderWithBridge(<WorkspacesView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Add workspace' }));
    const typed = { 'Workspace name': 'Company', 'API endpoint': 'https://api.company.test', 'Auth Key': 'key-1', 'Auth Secret': 'secret-1' };
    for (const [label, value] of Object.entries(typed)) fireEvent.change(await screen.findByLabelText(label), { target: { value } });
    expect(screen.getByTestId('ca-file-state').textContent).toMatch(/None: the system's certificate authorities/);

    const input = screen.getByLabelText('CA file') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['just notes'], 'notes.txt', { type: 'text/plain' })] } });
    const problem = await screen.findByTestId('ca-file-problem');
    expect(problem.textContent).toMatch(/holds no certificate.*\(CA_FILE_INVALID\)/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    for (const [label, value] of Object.entries(typed)) expect((screen.getByLabelText(label) as HTMLInputElement).value).toBe(value);
    // The page handed the file over by handle; it never sent its text.
    expect(bridge.calls.find((c) => c.channel === 'workspaces:readCaFile')?.request).toEqual({ handle: 'fh-notes.txt' });

    fireEvent.change(input, { target: { files: [new File(['pem'], 'ca.pem')] } });
    await waitFor(() => expect(screen.getByTestId('ca-file-state').textContent).toMatch(/Trusts Company Root CA until/));
    expect(screen.queryByTestId('ca-file-problem')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save workspace' }));
    await waitFor(() =>
      expect(bridge.calls.find((c) => c.channel === 'workspaces:save')?.request).toMatchObject({
        name: 'Company',
        endpoint: 'https://api.company.test',
        caPem: expect.stringMatching(/^-----BEGIN CERTIFICATE-----/),
      }),
    );
  });

  it('editing keeps the saved CA unless the user removes it', async () => {
    const remote = local({ id: 'r1', name: 'Company', kind: 'remote', endpoint: 'https://api.company.test', ca: { subject: 'Company Root CA', validTo: '2031-01-01T00:00:00.000Z' } });
    const bridge = createFakeBridge({ 'workspaces:list': () => ok([local(), remote]), 'workspaces:save': () => ok(remote) });
    renderWithBridge(<WorkspacesView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Company' }));
    expect((await screen.findByTestId('ca-file-state')).textContent).toMatch(/Trusts Company Root CA/);
    fireEvent.click(screen.getByRole('button', { name: 'Save workspace' }));
    await waitFor(() => expect(bridge.calls.filter((c) => c.channel === 'workspaces:save')).toHaveLength(1));
    expect(bridge.calls.find((c) => c.channel === 'workspaces:save')?.request).not.toHaveProperty('caPem');

    fireEvent.click(await screen.findByRole('button', { name: 'Edit Company' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove CA file' }));
    expect(screen.getByTestId('ca-file-state').textContent).toMatch(/None/);
    fireEvent.click(screen.getByRole('button', { name: 'Save workspace' }));
    await waitFor(() => expect(bridge.calls.filter((c) => c.channel === 'workspaces:save')).toHaveLength(2));
    expect(bridge.calls.filter((c) => c.channel === 'workspaces:save')[1]?.request).toMatchObject({ caPem: null });
  });
});
