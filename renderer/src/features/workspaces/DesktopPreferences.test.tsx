import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppPreferences } from '../../../../shared/ipc/desktop-models';
import { ok } from '../../../../shared/result';
import { createFakeBridge } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { DesktopPreferences } from './DesktopPreferences';

const box = () => screen.getByRole('checkbox', { name: 'Keep running in the background when the window is closed' }) as HTMLInputElement;

describe('Desktop preferences', () => {
  afterEach(cleanup);

  it('shows background mode disabled, with the reason, where the host has no tray', async () => {
    renderWithBridge(<DesktopPreferences />, createFakeBridge());
    await waitFor(() => expect(screen.getByText('Only in the desktop app.')).toBeTruthy());
    expect(box().disabled).toBe(true);
    expect(box().getAttribute('aria-describedby')).toBe('background-hint');
  });

  it('turns background mode on and off where the host has a tray, and core keeps it', async () => {
    let saved: AppPreferences = { keepRunningInBackground: false };
    const view = () => ok({ ...saved, background: { available: true, reason: null } });
    const bridge = createFakeBridge({
      'app:preferences': view,
      'app:savePreferences': (change) => {
        saved = { ...saved, ...change };
        return view();
      },
    });
    renderWithBridge(<DesktopPreferences />, bridge);
    await waitFor(() => expect(box().disabled).toBe(false));
    expect(box().checked).toBe(false);
    fireEvent.click(box());
    await waitFor(() => expect(box().checked).toBe(true));
    expect(saved.keepRunningInBackground).toBe(true);
    expect(screen.getByText(/an icon in the tray/)).toBeTruthy();
    fireEvent.click(box());
    await waitFor(() => expect(saved.keepRunningInBackground).toBe(false));
  });
});
