import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../App';
import { createFakeBridge, sampleRun, type FakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useNavigation } from '../../state/navigation-store';
import { useSelection } from '../../state/selection-store';
import { useStepsChoice } from '../../state/steps-store';

const pickFiles = (label: 'Choose files' | 'Choose folder', files: File[]) => {
  const input = screen.getByLabelText(label) as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  fireEvent.change(input);
};

const file = (name: string, relative?: string) => {
  const f = new File(['x'.repeat(10)], name, { type: 'image/jpeg' });
  if (relative) Object.defineProperty(f, 'webkitRelativePath', { value: relative });
  return f;
};

const typeSteps = (text: string) => fireEvent.change(screen.getByTestId('steps-editor'), { target: { value: text } });

describe('Upload view', () => {
  let bridge: FakeBridge;
  beforeEach(() => {
    useSelection.setState({ files: [] });
    useNavigation.setState({ route: { name: 'upload' } });
    useStepsChoice.getState().choose('resize-1024');
    bridge = createFakeBridge();
  });
  afterEach(cleanup);

  it('shows an empty drop zone and keeps Start disabled with the reason', () => {
    renderWithBridge(<App />, bridge);
    expect(screen.getByTestId('drop-zone').textContent).toContain('Drop files or folders here');
    expect((screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Add files to start.')).toBeTruthy();
  });

  it('adds picked files through the bridge, lists them with totals, and removes one', async () => {
    renderWithBridge(<App />, bridge);
    pickFiles('Choose folder', [file('a.jpg', 'trip/a.jpg'), file('b.jpg', 'trip/b.jpg')]);
    pickFiles('Choose files', [file('c.jpg')]);
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(2));
    // The fake scans each root as one file: the folder "trip" and the loose file "c.jpg".
    expect(bridge.picked[0]?.map((p) => p.relativePath)).toEqual(['trip/a.jpg', 'trip/b.jpg']);
    expect(screen.getByLabelText('Selection totals').textContent).toBe('2 files · 2.0 KB');
    fireEvent.click(screen.getByRole('button', { name: 'Remove c.jpg' }));
    expect(screen.getAllByTestId('file-row')).toHaveLength(1);
  });

  it('shows a JSON syntax error at its line and column and disables Start', async () => {
    renderWithBridge(<App />, bridge);
    pickFiles('Choose files', [file('a.jpg')]);
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(1));
    fireEvent.click(screen.getByRole('radio', { name: /Custom steps \(JSON\)/ }));
    expect((screen.getByTestId('steps-editor') as HTMLTextAreaElement).value).toContain('"/image/resize"');
    typeSteps('{\n  ":original": {\n    "robot": "/upload/handle",\n  }\n}');
    expect(screen.getByTestId('steps-error').textContent).toContain('Unexpected token } at line 4, column 3');
    const start = screen.getByRole('button', { name: /^Start/ }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(screen.getByText('Fix the JSON in the steps editor to start.')).toBeTruthy();

    typeSteps('{ ":original": { "robot": "/upload/handle" }, "x": { "robot": "/image/resize", "use": "nope" } }');
    expect(screen.getByTestId('steps-error').textContent).toContain('ASSEMBLY_STEP_UNKNOWN_USE');
    expect(start.disabled).toBe(true);

    typeSteps('{ ":original": { "robot": "/upload/handle", "result": true } }');
    expect(screen.queryByTestId('steps-error')).toBeNull();
    expect(start.disabled).toBe(false);
  });

  it('starts a run with the chosen steps and opens its live view', async () => {
    renderWithBridge(<App />, bridge);
    pickFiles('Choose files', [file('a.jpg')]);
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(1));
    fireEvent.click(screen.getByRole('radio', { name: /Make 256 px thumbnails/ }));
    fireEvent.click(screen.getByRole('button', { name: /^Start/ }));
    await waitFor(() => expect(screen.getByTestId('run-state').textContent).toBe('Creating'));
    const call = bridge.calls.find((c) => c.channel === 'runs:start');
    expect(call?.request).toMatchObject({ files: [{ relativePath: 'a.jpg' }], instructions: { steps: { thumbs: { robot: '/image/resize', width: 256 } } } });
    // The selection is handed over to the run.
    expect(useSelection.getState().files).toHaveLength(0);

    act(() => bridge.emit('run:updated', sampleRun({ runId: 'run-1', state: 'ASSEMBLY_UPLOADING' })));
    await waitFor(() => expect(screen.getByTestId('run-state').textContent).toBe('Uploading'));
  });

  it('shows the code and message when the run cannot start', async () => {
    bridge = createFakeBridge({ 'runs:start': () => ({ ok: false, error: { code: 'GET_ACCOUNT_UNKNOWN_AUTH_KEY', message: 'Unknown Auth Key.', httpCode: 401 } }) });
    renderWithBridge(<App />, bridge);
    pickFiles('Choose files', [file('a.jpg')]);
    await waitFor(() => expect(screen.getAllByTestId('file-row')).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: /^Start/ }));
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
    expect(document.activeElement).toBe(zone);
    fireEvent.keyDown(zone, { key: 'Enter' });
    expect(opened).toBe(1);
  });
});
