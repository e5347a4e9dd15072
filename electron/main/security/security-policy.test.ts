import { describe, expect, it } from 'vitest';
import { safeStorageStatus } from '../secrets/vault-status';
import { appContentSecurityPolicy } from './csp';
import { isSafeExternalUrl } from './external-url';
import { isPermissionAllowed } from './permission-policy';

describe('Electron security policy', () => {
  it('sends only https URLs without credentials to the system browser', () => {
    expect(isSafeExternalUrl('https://transloadit.com/docs')).toBe(true);
    for (const url of ['http://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'https://user:pw@host/', 'nonsense']) {
      expect(isSafeExternalUrl(url), url).toBe(false);
    }
  });
  it('denies every permission except clipboard writes from our own page', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', 'app://app/index.html')).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(isPermissionAllowed('clipboard-read', 'app://app/index.html')).toBe(false);
    expect(isPermissionAllowed('media', 'app://app/index.html')).toBe(false);
    expect(isPermissionAllowed('notifications', 'app://app/')).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', null)).toBe(false);
  });
  it('has a CSP that allows only our own scripts and no network', () => {
    const csp = appContentSecurityPolicy();
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe');
  });
  it('treats Linux basic_text safeStorage as NOT secure, a real keyring as secure', () => {
    expect(safeStorageStatus({ available: true, platform: 'linux', backend: 'basic_text' })).toMatchObject({ secure: false, backend: 'none' });
    expect(safeStorageStatus({ available: true, platform: 'linux', backend: 'gnome_libsecret' })).toMatchObject({ secure: true, backend: 'safe-storage' });
    expect(safeStorageStatus({ available: false, platform: 'darwin', backend: null })).toMatchObject({ secure: false });
    expect(safeStorageStatus({ available: true, platform: 'win32', backend: null })).toMatchObject({ secure: true });
  });
});
