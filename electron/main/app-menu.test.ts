import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import type { AppCommand } from '../../shared/ipc/desktop-models';
import { appMenuTemplate } from './app-menu';

const items = (menu: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
  menu.flatMap((m) => [m, ...(Array.isArray(m.submenu) ? items(m.submenu) : [])]);
const build = (platform: NodeJS.Platform, developer = false) => {
  const sent: Array<AppCommand | string> = [];
  const menu = appMenuTemplate({ platform, appName: 'Assemblyline', developer, press: (accelerator) => sent.push(accelerator), command: (c) => sent.push(c) });
  const click = (label: string) => {
    const item = items(menu).find((i) => i.label === label);
    if (!item?.click) throw new Error(`no menu item ${label}`);
    (item.click as () => void)();
  };
  return { menu, sent, click, all: items(menu) };
};

describe('application menu', () => {
  it('has the usual menus, with an app menu (About, Settings, Quit) only on macOS', () => {
    expect(build('darwin').menu.map((m) => m.label)).toEqual(['Assemblyline', '&File', '&Edit', '&View', '&Window', '&Help']);
    expect(build('linux').menu.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
    expect(build('darwin').all.map((i) => i.role).filter(Boolean)).toEqual(expect.arrayContaining(['about', 'quit', 'close', 'copy', 'paste', 'togglefullscreen']));
    expect(build('win32').all.some((i) => i.role === 'quit')).toBe(true);
  });

  it("presses each item's shortcut in the page (add files or a folder, a screen, the shortcuts); Settings navigates", () => {
    const { click, sent } = build('darwin');
    click('Add files…');
    click('Add folder…');
    click('New upload');
    click('Activity');
    click('Keyboard shortcuts');
    click('Settings…');
    expect(sent).toEqual(['CmdOrCtrl+O', 'CmdOrCtrl+Shift+O', 'CmdOrCtrl+N', 'CmdOrCtrl+3', 'CmdOrCtrl+/', { command: 'navigate', route: '#/workspaces' }]);
  });

  it('shows the accelerators without registering them (the page handles the keys in both hosts)', () => {
    const withKeys = build('linux').all.filter((i) => i.accelerator && i.click);
    expect(withKeys.map((i) => [i.label, i.accelerator])).toEqual(expect.arrayContaining([['Add files…', 'CmdOrCtrl+O'], ['Add folder…', 'CmdOrCtrl+Shift+O'], ['Upload', 'CmdOrCtrl+1'], ['Watch folders', 'CmdOrCtrl+5'], ['Templates', 'CmdOrCtrl+9']]));
    // Every shortcut key is the page's; Settings (macOS only) is a menu-only accelerator.
    expect(withKeys.every((i) => i.registerAccelerator === false)).toBe(true);
    const accelerators = withKeys.map((i) => i.accelerator);
    expect(new Set(accelerators).size).toBe(accelerators.length);
  });

  it('offers reload and developer tools only while developing', () => {
    expect(build('linux').all.some((i) => i.role === 'toggleDevTools')).toBe(false);
    expect(build('linux', true).all.some((i) => i.role === 'toggleDevTools')).toBe(true);
  });
});
