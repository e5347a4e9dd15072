import { EditorView } from '@codemirror/view';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../App';
import { createFakeBridge, type FakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useNavigation } from '../../state/navigation-store';
import { useStepsChoice } from '../../state/steps-store';
import { resetTransfers } from '../transfers/transfer-store';
import { EMPTY_UPLOAD_OPTIONS } from './upload-options';

const pickFiles = (label: 'Choose files' | 'Choose folder', files: File[]) => {
  const input = screen.getByLabelText(label) as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  fireEvent.change(input);
};

const file = (name: string, relative?: string, size = 10) => {
  const f = new File(['x'.repeat(size)], name, { type: 'image/jpeg' });
  if (relative) Object.defineProperty(f, 'webkitRelativePath', { value: relative });
  return f;
};

/** The steps editor is CodeMirror in a shadow root (loaded when Custom is chosen): replace its text as typing does. */
const stepsEditor = async () => {
  const host = await screen.findByTestId('steps-editor');
  await waitFor(() => expect(host.shadowRoot?.querySelector('.cm-editor')).toBeTruthy());
  const root = host.shadowRoot as ShadowRoot;
  return { root, view: EditorView.findFromDOM(root.querySelector('.cm-editor') as HTMLElement) as EditorView };
};
const typeSteps = async (text: string) => {
  const { view } = await stepsEditor();
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
};

describe('Upload view', () => {
  let bridge: FakeBridge;
  beforeEach(() => {
    resetTransfers();
    useNavigation.setState({ route: { name: 'upload' } });
    useStepsChoice.getState().choose('resize-1024');
    bridge = createFakeBridge();
  });
  afterEach(cleanup);

  it('shows an empty drop zone and keeps Start disabled with the reason', async () => {
    renderWithBridge(<App />, bridge);
    expect(screen.getByTestId('drop-zone').textContent).toContain('Drop files or folders here');
    expect((screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Add files to start.')).toBeTruthy();
    expect(await screen.findByText(/No files yet/)).toBeTruthy();
  });

  it('Choose folder… uses the host’s own folder picker when it has one: nothing is read in the page', async () => {
    // First pick through the page once, so the fake core knows the folder's files by their handle.
    renderWithBridge(<App />, bridge);
    pickFiles('Choose folder', [file('a.jpg', 'trip/a.jpg', 1000)]);
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(1));
    cleanup();
    let picks = 0;
    const withPicker = Object.assign(bridge, { pickFolder: async () => (picks++, { ok: true as const, value: [{ handle: 'fh-trip' }] }) });
    renderWithBridge(<App />, withPicker);
    const handed = bridge.calls.filter((c) => c.channel === 'drafts:add').length;
    fireEvent.click(screen.getByRole('button', { name: 'Choose folder…' }));
    await waitFor(() => expect(bridge.calls.filter((c) => c.channel === 'drafts:add')).toHaveLength(handed + 1));
    expect(picks).toBe(1);
    expect(bridge.calls.filter((c) => c.channel === 'drafts:add').at(-1)?.request).toEqual({ handles: ['fh-trip'] });
  });

  it('hands picked files to core as a draft, lists the rows core holds, and removes one', async () => {
    renderWithBridge(<App />, bridge);
    pickFiles('Choose folder', [file('a.jpg', 'trip/a.jpg', 1000), file('b.jpg', 'trip/b.jpg', 1000)]);
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(2));
    pickFiles('Choose files', [file('c.jpg', undefined, 1000)]);
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(3));
    expect(bridge.calls.filter((c) => c.channel === 'drafts:add').map((c) => c.request)).toEqual([{ handles: ['fh-trip'] }, { handles: ['fh-c.jpg'] }]);
    // The old path is gone: nothing is scanned into the page.
    expect(bridge.calls.some((c) => c.channel === 'files:scan')).toBe(false);
    expect(screen.getByLabelText('Selection totals').textContent).toBe('3 files · 3.0 KB');
    expect(screen.getByTestId('add-outcome').textContent).toBe('Added 1 file.');

    fireEvent.click(screen.getByRole('button', { name: 'Remove c.jpg' }));
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(2));
    expect(bridge.calls.find((c) => c.channel === 'drafts:remove')?.request).toEqual({ ids: [expect.any(String)] });
    expect(bridge.queue.draftRows.map((r) => r.relativePath)).toEqual(['trip/a.jpg', 'trip/b.jpg']);
    expect(screen.getByLabelText('Selection totals').textContent).toBe('2 files · 2.0 KB');
  });

  it('shows a live count while core walks a folder, never a spinner over "No files yet"', async () => {
    bridge.queue.holdScans = true;
    renderWithBridge(<App />, bridge);
    pickFiles('Choose folder', [file('a.jpg', 'shoot/a.jpg')]);
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'drafts:add')).toBe(true));
    act(() => bridge.emit('draft:updated', { version: 0, scanning: true, files: 12_345, bytes: 3_200_000_000, unreadable: 0, duplicates: 0 }));
    await waitFor(() => expect(screen.getByTestId('drop-status').textContent).toBe('Adding… 12,345 files · 3.2 GB'));
    expect(screen.queryByText(/No files yet/)).toBeNull();
    expect(screen.getByLabelText('Selection totals').textContent).toBe('12,345 files · 3.2 GB');
    act(() => bridge.queue.finishScan());
    await waitFor(() => expect(screen.getByTestId('drop-status').textContent).toBe('Drop files or folders here'));
  });

  it('lists items that could not be read with their reason, and adds the rest', async () => {
    renderWithBridge(<App />, bridge);
    pickFiles('Choose folder', [file('ok.jpg', 'mixed/ok.jpg'), file('locked.jpg', 'mixed/unreadable/locked.jpg')]);
    const skipped = await screen.findByTestId('skipped-items');
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(1));
    expect(screen.getByTestId('add-outcome').textContent).toBe('Added 1 file. 1 item could not be read.');
    fireEvent.click(within(skipped).getByText(/1 item could not be read/));
    (skipped as HTMLDetailsElement).open = true;
    fireEvent(skipped, new Event('toggle'));
    await waitFor(() => expect(skipped.textContent).toContain('mixed/unreadable/locked.jpg: Permission denied (EACCES)'));
  });

  it('shows a JSON syntax error at its line and column and disables Start', async () => {
    renderWithBridge(<App />, bridge);
    pickFiles('Choose files', [file('a.jpg')]);
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(1));
    fireEvent.click(screen.getByRole('radio', { name: /Custom steps \(JSON\)/ }));
    await typeSteps('{\n  ":original": {\n    "robot": "/upload/handle",\n  }\n}');
    expect(screen.getByTestId('steps-error').textContent).toContain('Unexpected token } at line 4, column 3');
    const { root, view } = await stepsEditor();
    // Marked in the editor at that line, and the editable text says it is invalid.
    await waitFor(() => expect(root.querySelector('.cm-lintRange-error')).toBeTruthy());
    expect(root.querySelector('.cm-lintRange-error')?.closest('.cm-line')?.textContent).toBe('  }');
    expect(root.querySelector('.cm-content')?.getAttribute('aria-invalid')).toBe('true');
    // "Go to error" puts the cursor there.
    fireEvent.click(screen.getByRole('button', { name: 'Go to error' }));
    expect(view.state.doc.lineAt(view.state.selection.main.head).number).toBe(4);
    // happy-dom fires selectionchange synchronously inside CodeMirror's update (browsers do not): leave the editor first.
    act(() => view.contentDOM.blur());
    const start = screen.getByRole('button', { name: /^Start/ }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(screen.getByText('Fix the JSON in the steps editor to start.')).toBeTruthy();
    await typeSteps('{ ":original": { "robot": "/upload/handle", "result": true } }');
    expect(screen.queryByTestId('steps-error')).toBeNull();
    await waitFor(() => expect(root.querySelector('.cm-lintRange-error')).toBeNull());
    expect(root.querySelector('.cm-content')?.getAttribute('aria-invalid')).toBeNull();
    await waitFor(() => expect(start.disabled).toBe(false));
  });

  it('marks each step problem at its line in the custom steps editor, and Line N goes there', async () => {
    renderWithBridge(<App />, bridge);
    fireEvent.click(screen.getByRole('radio', { name: /Custom steps \(JSON\)/ }));
    await typeSteps(JSON.stringify({ ':original': { robot: '/upload/handle' }, sparkle: { robot: '/image/sparkle', use: ':original' } }, null, 2));
    expect(screen.getByTestId('steps-error').textContent).toContain('/image/sparkle');
    const { root, view } = await stepsEditor();
    await waitFor(() => expect(root.querySelector('.cm-lintRange-error')).toBeTruthy());
    const marked = root.querySelector('.cm-lintRange-error')?.closest('.cm-line')?.textContent ?? '';
    expect(marked).toMatch(/sparkle/);
    const line = screen.getByTestId('steps-error-line');
    fireEvent.click(line);
    const cursorLine = view.state.doc.lineAt(view.state.selection.main.head);
    expect(line.textContent).toBe(`Line ${cursorLine.number}`);
    expect(cursorLine.text).toBe(marked);
  });

  it('shows the pre-flight summary: files after the skip rules, what they left out, Assemblies and methods', async () => {
    bridge.queue.settings = { ...bridge.queue.settings, batchMaxFiles: 2, multipartMaxFileBytes: 100 };
    renderWithBridge(<App />, bridge);
    pickFiles('Choose folder', [file('a.jpg', 'trip/a.jpg', 10), file('b.jpg', 'trip/b.jpg', 10), file('c.mov', 'trip/c.mov', 500), file('.DS_Store', 'trip/.DS_Store', 5)]);
    const preflight = await screen.findByTestId('preflight');
    await waitFor(() => expect(within(preflight).getByTestId('preflight-files').textContent).toBe('3 files · 520 B → 2 Assemblies'));
    expect(within(preflight).getByTestId('preflight-skipped').textContent).toBe('Left out: 1 hidden or system file');
    expect(within(preflight).getByTestId('preflight-methods').textContent).toBe('2 small files, many per request · 1 file by tus (resumable)');
    expect(preflight.textContent).toContain('Files 1–2: 2 files · 20 B');
    // The plan may be asked again once the settings arrive; the button counts the plan once it is answered.
    await waitFor(() => expect(screen.getByRole('button', { name: /^Start/ }).textContent).toBe('Start · 3 files'));
  });

  it('keeps the Start button and the pre-flight on the same count while the plan is asked again', async () => {
    // Every plan asked while held waits (the pick may ask before core has the new file, and again once it
    // has); releasing answers them all and holds no later one.
    const held: (() => void)[] = [];
    let hold = false;
    const release = () => {
      hold = false;
      for (const answer of held.splice(0)) answer();
    };
    bridge = createFakeBridge({
      'drafts:plan': async (req) => {
        if (hold) await new Promise<void>((resolve) => held.push(resolve));
        return bridge.queue.handle('drafts:plan', req);
      },
    });
    renderWithBridge(<App />, bridge);
    pickFiles('Choose folder', [file('a.jpg', 'trip/a.jpg'), file('b.jpg', 'trip/b.jpg'), file('c.jpg', 'trip/c.jpg'), file('.DS_Store', 'trip/.DS_Store')]);
    const preflight = await screen.findByTestId('preflight');
    const start = () => screen.getByRole('button', { name: /^Start/ }).textContent;
    await waitFor(() => expect(within(preflight).getByTestId('preflight-files').textContent).toBe('3 files · 30 B → 1 Assembly'));
    await waitFor(() => expect(start()).toBe('Start · 3 files'));
    hold = true;
    pickFiles('Choose files', [file('d.jpg')]);
    // Asked again (the hidden file still left out): both show the last answer, the pre-flight says it is working.
    await waitFor(() => expect(preflight.getAttribute('aria-busy')).toBe('true'));
    expect(within(preflight).getByTestId('preflight-files').textContent).toBe('3 files · 30 B → 1 Assembly');
    expect(start()).toBe('Start · 3 files');
    act(() => release());
    await waitFor(() => expect(within(preflight).getByTestId('preflight-files').textContent).toBe('4 files · 40 B → 1 Assembly'));
    expect(start()).toBe('Start · 4 files');
    // An emptied list counts nothing, whatever answer the plan last gave.
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(start()).toBe('Start'));
  });

  it('shows a warning the service would return at the batch-size field, before a byte is sent', async () => {
    useStepsChoice.getState().chooseTemplate('0123456789abcdef0123456789abcdef');
    bridge.queue.settings = { ...bridge.queue.settings, batchMaxFiles: 5_000 };
    renderWithBridge(<App />, bridge);
    pickFiles('Choose files', [file('a.jpg')]);
    const warning = await screen.findByTestId('field-warning');
    // The fake's Template allows 1,000 files per Assembly; batches of 5,000 would be refused.
    expect(warning.dataset.field).toBe('batchMaxFiles');
    expect(warning.textContent).toContain('MAX_NUMBER_OF_FILES_EXCEEDED');
    // It sits inside the batch-size field, not in a list far away.
    expect(warning.closest('.setting-field')?.textContent).toContain('At most files per Assembly');
    expect((warning.closest('details') as HTMLDetailsElement).open).toBe(true);
  });

  it('starts a transfer with the chosen steps and opens Transfers', async () => {
    renderWithBridge(<App />, bridge);
    pickFiles('Choose folder', [file('a.jpg', 'trip/a.jpg'), file('b.jpg', 'trip/b.jpg')]);
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(2));
    fireEvent.click(screen.getByRole('radio', { name: /Make 256 px thumbnails/ }));
    const start = screen.getByRole('button', { name: /^Start/ }) as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(start);
    await waitFor(() => expect(useNavigation.getState().route.name).toBe('transfers'));
    expect(bridge.calls.find((c) => c.channel === 'transfers:start')?.request).toMatchObject({ instructions: { steps: { thumbs: { robot: '/image/resize', width: 256 } } } });
    await waitFor(() => expect(screen.getAllByTestId('transfer-row')).toHaveLength(2));
    expect(bridge.calls.some((c) => c.channel === 'runs:start')).toBe(false);
  });

  it('sends the notify URL and what the notification leaves out; a malformed URL holds Start', async () => {
    useStepsChoice.setState({ options: EMPTY_UPLOAD_OPTIONS });
    renderWithBridge(<App />, bridge);
    pickFiles('Choose files', [file('a.jpg')]);
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(1));
    const start = screen.getByRole('button', { name: /^Start/ }) as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    // Closed by default, with what is set in one line.
    const toggle = screen.getByRole('button', { name: /^Options/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByTestId('options-summary').textContent).toBe('None set');
    fireEvent.click(toggle);
    const url = screen.getByRole('textbox', { name: 'Notify URL' });
    fireEvent.change(url, { target: { value: 'example.com/hook' } });
    expect(start.disabled).toBe(true);
    expect(screen.getByText('Fix the notify URL to start.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Use the in-app tester' }));
    await waitFor(() => expect((url as HTMLInputElement).value).toBe('http://127.0.0.1:45678/webhook'));
    fireEvent.click(within(screen.getByRole('group', { name: 'Leave out of the notification' })).getByLabelText('Results'));
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(start);
    await waitFor(() => expect(useNavigation.getState().route.name).toBe('transfers'));
    expect(bridge.calls.find((c) => c.channel === 'transfers:start')?.request).toMatchObject({
      instructions: { notify_url: 'http://127.0.0.1:45678/webhook', notification_payload: ['without_results'] },
    });
    useStepsChoice.setState({ options: EMPTY_UPLOAD_OPTIONS });
  });

  it('checks each option at its field, holds Start with the reason, and sends limits, referer and fields', async () => {
    useStepsChoice.setState({ options: EMPTY_UPLOAD_OPTIONS });
    renderWithBridge(<App />, bridge);
    pickFiles('Choose files', [file('a.jpg')]);
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(1));
    const start = screen.getByRole('button', { name: /^Start/ }) as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: /^Options/ }));
    const maxSize = screen.getByRole('textbox', { name: 'Max size per Assembly' });
    fireEvent.change(maxSize, { target: { value: 'lots' } });
    expect(screen.getByRole('alert').textContent).toBe('Give a size such as 500 MB, 2 GiB or 1048576 (bytes).');
    expect(start.disabled).toBe(true);
    fireEvent.change(screen.getByRole('textbox', { name: 'Max files per Assembly' }), { target: { value: '0' } });
    expect(screen.getByText('Fix the max size and the max number of files in Options to start.')).toBeTruthy();
    fireEvent.change(maxSize, { target: { value: '2 MB' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Max files per Assembly' }), { target: { value: '3' } });
    expect(screen.getByText('2,000,000 bytes (max_size)')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Referer (regular expression)' }), { target: { value: '^https://(' } });
    expect(screen.getByRole('alert').textContent).toMatch(/^Not a valid regular expression/);
    fireEvent.change(screen.getByRole('textbox', { name: 'Referer (regular expression)' }), { target: { value: '^https://example\\.com/' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add field' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Field 1 name' }), { target: { value: 'signature' } });
    expect(screen.getByRole('alert').textContent).toBe('"signature" is a name the request itself uses; choose another.');
    fireEvent.change(screen.getByRole('textbox', { name: 'Field 1 name' }), { target: { value: 'album' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Field 1 value' }), { target: { value: 'Trip 2026' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Encoding stack version' }), { target: { value: 'banana' } });
    expect(screen.getByRole('alert').textContent).toMatch(/ffmpeg_stack "banana" is not a stack version/);
    fireEvent.change(screen.getByRole('combobox', { name: 'Encoding stack version' }), { target: { value: 'v7' } });
    expect(screen.queryByRole('alert')).toBeNull();
    // Closed again: the summary says what is set.
    fireEvent.click(screen.getByRole('button', { name: /^Options/ }));
    expect(screen.getByTestId('options-summary').textContent).toBe('Max 2 MB · max 3 files · referer · 1 field · stack v7');
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(start);
    await waitFor(() => expect(useNavigation.getState().route.name).toBe('transfers'));
    expect(bridge.calls.find((c) => c.channel === 'transfers:start')?.request).toMatchObject({
      instructions: { auth: { max_size: 2_000_000, max_number_of_files: 3, referer: '^https://example\\.com/' }, fields: { album: 'Trip 2026' } },
    });
    useStepsChoice.setState({ options: EMPTY_UPLOAD_OPTIONS });
  });

  it('shows the code and message when the transfer cannot start', async () => {
    bridge = createFakeBridge({ 'transfers:start': () => ({ ok: false, error: { code: 'GET_ACCOUNT_UNKNOWN_AUTH_KEY', message: 'Unknown Auth Key.', httpCode: 401 } }) });
    renderWithBridge(<App />, bridge);
    pickFiles('Choose files', [file('a.jpg')]);
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(1));
    const start = screen.getByRole('button', { name: /^Start/ }) as HTMLButtonElement;
    await waitFor(() => expect(start.disabled).toBe(false));
    fireEvent.click(start);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('GET_ACCOUNT_UNKNOWN_AUTH_KEY')).toBeTruthy();
    expect(alert.textContent).toContain('Unknown Auth Key.');
    expect(useNavigation.getState().route.name).toBe('upload');
  });

  it('opens the file picker when Enter is pressed on the focused drop zone', () => {
    renderWithBridge(<App />, bridge);
    let opened = 0;
    (screen.getByLabelText('Choose files') as HTMLInputElement).addEventListener('click', () => (opened += 1));
    const zone = screen.getByTestId('drop-zone');
    zone.focus();
    fireEvent.keyDown(zone, { key: 'Enter' });
    expect(opened).toBe(1);
  });
});
