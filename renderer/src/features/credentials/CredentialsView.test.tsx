import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CREDENTIAL_TYPES } from '../../../../shared/api/credential-types';
import { ok } from '../../../../shared/result';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { answerDiscard } from '../../bridge/test/unsaved-questions';
import { CredentialsView } from './CredentialsView';

const openForm = async () => {
  const bridge = createFakeBridge();
  renderWithBridge(<CredentialsView />, bridge);
  fireEvent.click(await screen.findByRole('button', { name: 'New credentials' }));
  return bridge;
};
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('Credentials form', () => {
  afterEach(cleanup);

  it('states the name rule at the field, marks a bad name there and accepts prod_sftp', async () => {
    await openForm();
    const name = screen.getByTestId('credential-name');
    const hint = screen.getByTestId('credential-name-hint');
    expect(hint.textContent).toContain('latin letters, digits, dashes (-) and underscores (_)');
    expect(name.getAttribute('aria-describedby')).toBe(hint.id);

    fireEvent.change(name, { target: { value: 'prod sftp' } });
    expect(hint.textContent).toMatch(/^Names cannot contain spaces\./);
    expect(hint.className).toBe('field-error');
    expect(name.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(name, { target: { value: 'prod_sftp' } });
    expect(name.getAttribute('aria-invalid')).toBe('false');
    type('Host', 'sftp.example.com');
    type('User', 'deploy');
    expect((screen.getByRole('button', { name: 'Save credentials' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('labels every type, grouped, with its code secondary', async () => {
    await openForm();
    const select = screen.getByRole('combobox', { name: 'Type' });
    const options = within(select).getAllByRole('option');
    expect(options).toHaveLength(CREDENTIAL_TYPES.length);
    for (const o of options) expect(o.textContent).toMatch(/^[A-Z].+ \([a-z0-9]+\)$/);
    expect(options.map((o) => o.textContent)).toContain('Amazon S3 (s3)');
    expect([...select.querySelectorAll('optgroup')].map((g) => g.label)).toEqual(['Servers', 'Cloud storage', 'Apps and platforms', 'Other services']);
    fireEvent.change(select, { target: { value: 'google' } });
    expect(screen.getByText('google', { selector: 'code' })).toBeTruthy();
  });

  it('tests the unsaved form in core and shows the checks', async () => {
    const bridge = await openForm();
    const testButton = screen.getByRole('button', { name: 'Test credential' }) as HTMLButtonElement;
    expect(testButton.disabled).toBe(true);
    type('Host', '127.0.0.1');
    type('User', 'deploy');
    type('Password', 'pw');
    type('Folder to test', '/exports');
    fireEvent.click(testButton);
    const report = await screen.findByTestId('credential-test-report');
    expect(within(report).getByText('Credentials work')).toBeTruthy();
    expect(within(report).getByTestId('credential-check-reach').dataset.status).toBe('ok');
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'credentials:test')).toBe(true));
    expect(bridge.calls.find((c) => c.channel === 'credentials:test')!.request).toEqual({
      draft: { type: 'sftp', values: { host: '127.0.0.1', port: '', user: 'deploy', password: 'pw', private_key: '' }, clear: [] },
      path: '/exports',
    });
  });
});

describe('Credentials content as one value (the spec allows any JSON value)', () => {
  afterEach(cleanup);

  it('saves a token as one value, never fields, and requires it for new credentials', async () => {
    const bridge = await openForm();
    fireEvent.change(screen.getByTestId('credential-name'), { target: { value: 'openai_token' } });
    fireEvent.click(screen.getByRole('radio', { name: /One value/ }));
    expect(screen.queryByLabelText('Host')).toBeNull();
    const save = screen.getByRole('button', { name: 'Save credentials' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(save.title).toBe('Fill in Value');
    expect((screen.getByRole('button', { name: 'Test credential' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('credential-value'), { target: { value: 'sk-live-123' } });
    fireEvent.click(save);
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'credentials:create')).toBe(true));
    expect(bridge.calls.find((c) => c.channel === 'credentials:create')!.request).toEqual({ name: 'openai_token', type: 'sftp', values: {}, value: 'sk-live-123' });
  });

  it('marks a stored one value in the list and keeps it when an edit leaves it empty', async () => {
    const saved = { id: 'c9', name: 'api_token', type: 'http', values: {}, secretsSet: [], contentKind: 'value' as const, created: null, modified: null };
    const bridge = createFakeBridge({ 'credentials:list': () => ok([saved]) });
    renderWithBridge(<CredentialsView />, bridge);
    const row = (await screen.findAllByTestId('credential-row'))[0]!;
    expect(within(row).getByText('value set').getAttribute('title')).toMatch(/one value/);
    fireEvent.click(within(row).getByRole('button', { name: 'Edit api_token' }));
    expect((screen.getByRole('radio', { name: /One value/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId('credential-value') as HTMLTextAreaElement).placeholder).toBe('Stored — leave empty to keep it');
    fireEvent.click(screen.getByRole('button', { name: 'Save credentials' }));
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'credentials:update')).toBe(true));
    expect(bridge.calls.find((c) => c.channel === 'credentials:update')!.request).toMatchObject({ id: 'c9', values: {}, value: '' });
  });
});

describe('Credentials form: a stored secret stays with its address', () => {
  afterEach(cleanup);

  it('moving the host asks for the password again (Save waits for it); back at the saved host the stored one serves', async () => {
    const saved = { id: 'c2', name: 'drop_ftp', type: 'ftp', values: { host: 'ftp-a.example.com', port: '21', user: 'me' }, secretsSet: ['password'], created: null, modified: null };
    renderWithBridge(<CredentialsView />, createFakeBridge({ 'credentials:list': () => ok([saved]) }));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit drop_ftp' }));
    const password = () => screen.getByLabelText('Password') as HTMLInputElement;
    const save = () => screen.getByRole('button', { name: 'Save credentials' }) as HTMLButtonElement;
    expect(password().placeholder).toBe('Stored — leave empty to keep it');
    expect(save().disabled).toBe(false);
    type('Host', 'ftp-b.example.com');
    expect(password().placeholder).toBe('Type it again: the stored one stays with the old address');
    expect(save().disabled).toBe(true);
    expect(save().title).toBe('Fill in Password');
    type('Host', 'ftp-a.example.com');
    expect(password().placeholder).toBe('Stored — leave empty to keep it');
    // A user of the same server is no move.
    type('User', 'you');
    expect(save().disabled).toBe(false);
  });
});

describe('Credentials form and the keyboard', () => {
  afterEach(cleanup);

  it('Escape closes the form opened by Edit and returns to that Edit button', async () => {
    const saved = { id: 'c1', name: 'media_sftp', type: 'sftp', values: { host: 'sftp.example.com', user: 'deploy' }, secretsSet: ['password'], created: null, modified: null };
    renderWithBridge(<CredentialsView />, createFakeBridge({ 'credentials:list': () => ok([saved]) }));
    const edit = await screen.findByRole('button', { name: 'Edit media_sftp' });
    fireEvent.click(edit);
    const form = await screen.findByRole('form', { name: 'Edit media_sftp' });
    expect(document.activeElement).toBe(screen.getByTestId('credential-name'));
    // A password typed and deleted again leaves nothing to lose: no question.
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 's3cret' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: '' } });
    fireEvent.keyDown(screen.getByLabelText('Password'), { key: 'Escape' });
    expect(form.isConnected).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(edit);
  });

  it('the Test pane takes the focus, and Escape closes it and returns to its Test button', async () => {
    const saved = { id: 'c1', name: 'media_sftp', type: 'sftp', values: { host: 'sftp.example.com', user: 'deploy' }, secretsSet: ['password'], created: null, modified: null };
    renderWithBridge(<CredentialsView />, createFakeBridge({ 'credentials:list': () => ok([saved]) }));
    const testButton = await screen.findByRole('button', { name: 'Test media_sftp' });
    testButton.focus();
    fireEvent.click(testButton);
    const pane = await screen.findByTestId('credential-test-pane');
    await screen.findByTestId('credential-test-report');
    expect(pane.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    expect(pane.isConnected).toBe(false);
    expect(document.activeElement).toBe(testButton);
  });

  it("the form's own Cancel button asks like Escape: Cancel keeps every character, Discard changes closes it", async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<CredentialsView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'New credentials' }));
    const form = screen.getByRole('form', { name: 'New credentials' });
    fireEvent.change(screen.getByTestId('credential-name'), { target: { value: 'media_sftp' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    await answerDiscard('Cancel');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((screen.getByTestId('credential-name') as HTMLInputElement).value).toBe('media_sftp');
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    await answerDiscard('Discard changes');
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New credentials' })).toBeNull());
    expect(bridge.calls.some((c) => c.channel === 'credentials:create')).toBe(false);
    // Nothing typed: Cancel closes at once.
    fireEvent.click(screen.getByRole('button', { name: 'New credentials' }));
    fireEvent.click(within(screen.getByRole('form', { name: 'New credentials' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'New credentials' })).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Escape on a changed form asks before discarding it, and nothing is saved', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<CredentialsView />, bridge);
    fireEvent.click(await screen.findByRole('button', { name: 'New credentials' }));
    fireEvent.change(screen.getByTestId('credential-name'), { target: { value: 'media_sftp' } });
    // Escape with a typed name: nothing is lost without a question.
    fireEvent.keyDown(screen.getByTestId('credential-name'), { key: 'Escape' });
    await answerDiscard('Discard changes');
    expect(screen.queryByRole('form', { name: 'New credentials' })).toBeNull();
    expect(bridge.calls.some((c) => c.channel === 'credentials:create')).toBe(false);
  });
});

