import { describe, expect, it } from 'vitest';
import { BACKGROUND_UNAVAILABLE_IN_BROWSER, preferencesView } from './app-handlers';

describe('app preferences view', () => {
  it('offers background mode in the Electron host only, and says why not in the browser host', () => {
    expect(preferencesView('electron', { keepRunningInBackground: true })).toEqual({ keepRunningInBackground: true, background: { available: true, reason: null } });
    expect(preferencesView('browser', { keepRunningInBackground: false })).toEqual({ keepRunningInBackground: false, background: { available: false, reason: BACKGROUND_UNAVAILABLE_IN_BROWSER } });
    expect(BACKGROUND_UNAVAILABLE_IN_BROWSER).toMatch(/no tray icon.*Closing this tab stops the page/);
  });
});
