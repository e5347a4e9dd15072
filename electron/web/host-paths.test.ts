import { describe, expect, it } from 'vitest';
import { defaultDataDir, defaultDownloadsDir, openCommand } from './host-paths';

describe('host paths', () => {
  it('uses ASSEMBLYLINE_DATA_DIR when set, else the platform data folder', () => {
    expect(defaultDataDir('linux', { ASSEMBLYLINE_DATA_DIR: '/srv/al' }, '/home/u')).toBe('/srv/al');
    expect(defaultDataDir('linux', {}, '/home/u')).toBe('/home/u/.local/share/assemblyline');
    expect(defaultDataDir('linux', { XDG_DATA_HOME: '/x' }, '/home/u')).toBe('/x/assemblyline');
    expect(defaultDataDir('darwin', {}, '/Users/u')).toBe('/Users/u/Library/Application Support/Assemblyline');
  });
  it('puts downloads in ~/Downloads/Assemblyline unless told otherwise', () => {
    expect(defaultDownloadsDir({}, '/home/u')).toBe('/home/u/Downloads/Assemblyline');
    expect(defaultDownloadsDir({ ASSEMBLYLINE_DOWNLOADS_DIR: '/d' }, '/home/u')).toBe('/d');
  });
  it('opens with xdg-open on Linux, revealing by opening the containing folder', () => {
    expect(openCommand('linux', '/home/u/a.jpg', false)).toEqual({ command: 'xdg-open', args: ['/home/u/a.jpg'] });
    expect(openCommand('linux', '/home/u/a.jpg', true)).toEqual({ command: 'xdg-open', args: ['/home/u'] });
    expect(openCommand('darwin', '/a/b.jpg', true)).toEqual({ command: 'open', args: ['-R', '/a/b.jpg'] });
  });
});
