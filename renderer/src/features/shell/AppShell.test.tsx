import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok } from '../../../../shared/result';
import { App } from '../../App';
import { createFakeBridge, sampleAppInfo, sampleRun, withRun } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { useNavigation } from '../../state/navigation-store';
import { useTheme } from '../../state/theme-store';

describe('App shell', () => {
  beforeEach(() => useNavigation.setState({ route: { name: 'upload' } }));
  afterEach(cleanup);

  it('shows the active workspace and the local service URL', async () => {
    renderWithBridge(<App />, createFakeBridge());
    expect(await screen.findByText('http://127.0.0.1:43210')).toBeTruthy();
    expect(screen.getByText('Local (this computer)')).toBeTruthy();
    expect(screen.queryByRole('note', { name: 'Secret storage' })).toBeNull();
  });

  it('explains calmly when secrets cannot be stored securely', async () => {
    const bridge = createFakeBridge({
      'app:info': () => ok(sampleAppInfo({ vault: { backend: 'none', secure: false, detail: 'No OS keyring was found.' } })),
    });
    renderWithBridge(<App />, bridge);
    const note = await screen.findByRole('note', { name: 'Secret storage' });
    expect(note.textContent).toContain('No OS keyring was found.');
    expect(note.textContent).toContain('uploads work as usual');
  });

  it('moves between sidebar items with the arrow keys and opens Activity', async () => {
    const bridge = createFakeBridge();
    withRun(bridge, sampleRun({ state: 'ASSEMBLY_COMPLETED' }));
    renderWithBridge(<App />, bridge);
    const upload = screen.getByRole('button', { name: 'Upload' });
    upload.focus();
    fireEvent.keyDown(upload, { key: 'ArrowDown' });
    // Transfers sits right after Upload.
    const transfers = screen.getByRole('button', { name: 'Transfers' });
    expect(document.activeElement).toBe(transfers);
    fireEvent.keyDown(transfers, { key: 'ArrowDown' });
    const activity = screen.getByRole('button', { name: 'Activity' });
    expect(document.activeElement).toBe(activity);
    fireEvent.click(activity);
    expect(activity.getAttribute('aria-current')).toBe('page');
    const row = await screen.findByTestId('assembly-open');
    expect(row.textContent).toContain('2 files · 3.0 KB');
    fireEvent.click(row);
    await waitFor(() => expect(screen.getByTestId('assembly-state').textContent).toBe('Completed'));
  });

  it('groups the sidebar into Work, Account and Setup, and the arrow keys cross from one group to the next', () => {
    renderWithBridge(<App />, createFakeBridge());
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const lists = within(nav).getAllByRole('list');
    expect(lists.map((l) => l.getAttribute('aria-labelledby') && document.getElementById(l.getAttribute('aria-labelledby')!)?.textContent)).toEqual(['Work', 'Account', 'Setup']);
    expect(within(screen.getByRole('list', { name: 'Setup' })).getAllByRole('button').map((b) => b.textContent)).toEqual(['Templates', 'Credentials', 'Auth Keys', 'CDN URLs', 'Workspaces']);
    const watchFolders = screen.getByRole('button', { name: 'Watch folders' });
    watchFolders.focus();
    fireEvent.keyDown(watchFolders, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Usage' }));
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Workspaces' }));
  });

  it('toggles the theme and remembers it', () => {
    renderWithBridge(<App />, createFakeBridge());
    useTheme.getState().setTheme('system');
    fireEvent.click(screen.getByRole('button', { name: 'Theme: follow system' }));
    expect(document.documentElement.dataset.theme).toBe('light');
    fireEvent.click(screen.getByRole('button', { name: 'Theme: light' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(window.localStorage.getItem('assemblyline.theme')).toBe('dark');
  });
});
