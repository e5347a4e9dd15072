import { describe, expect, it } from 'vitest';
import { createFileHandleRegistry, pathWithinRoot } from './file-handles';

const codeOf = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'ok' : r.error?.code);

describe('file handle registry', () => {
  it('issues random handles that name the picked root, never a path', () => {
    const files = createFileHandleRegistry();
    const handle = files.register('/home/me/photos');
    expect(handle).toMatch(/^fh_[A-Za-z0-9_-]{24}$/);
    expect(handle).not.toContain('photos');
    expect(files.root(handle)).toEqual({ ok: true, value: '/home/me/photos' });
    expect(files.resolve(handle, 'photos/sub/a.jpg')).toEqual({ ok: true, value: '/home/me/photos/sub/a.jpg' });
    // Picking the same folder again gives the same handle, so the selection does not list it twice.
    expect(files.register('/home/me/photos/')).toBe(handle);
    expect(files.register('/home/me/other')).not.toBe(handle);
  });

  it('refuses a forged handle', () => {
    const files = createFileHandleRegistry();
    files.register('/home/me/photos');
    expect(codeOf(files.root('fh_forged'))).toBe('FILE_HANDLE_UNKNOWN');
    expect(codeOf(files.resolve('/etc/passwd', 'passwd'))).toBe('FILE_HANDLE_UNKNOWN');
  });

  it('expires a handle left unused, but not one in use', () => {
    let clock = 0;
    const files = createFileHandleRegistry({ ttlMs: 1_000, now: () => clock });
    const used = files.register('/a');
    const idle = files.register('/b');
    clock = 900;
    expect(files.root(used).ok).toBe(true);
    clock = 1_800;
    expect(files.root(used).ok).toBe(true);
    expect(codeOf(files.root(idle))).toBe('FILE_HANDLE_UNKNOWN');
  });

  it('forgets the least recently used handle past its cap', () => {
    const files = createFileHandleRegistry({ maxHandles: 2 });
    const a = files.register('/a');
    const b = files.register('/b');
    files.root(a);
    files.register('/c');
    expect(files.root(a).ok).toBe(true);
    expect(codeOf(files.root(b))).toBe('FILE_HANDLE_UNKNOWN');
  });

  it('maps a shortened name on disk to the name the user sees, both ways', () => {
    const files = createFileHandleRegistry();
    const handle = files.register('/staging/b1/photos');
    files.alias(handle, 'photos/short~1.jpg', 'photos/a-very-long-name.jpg');
    expect(files.resolve(handle, 'photos/a-very-long-name.jpg')).toEqual({ ok: true, value: '/staging/b1/photos/short~1.jpg' });
    expect(files.shownAs(handle, 'photos/short~1.jpg')).toBe('photos/a-very-long-name.jpg');
    expect(files.shownAs(handle, 'photos/plain.jpg')).toBe('photos/plain.jpg');
  });
});

describe('pathWithinRoot', () => {
  it('accepts the root itself (a loose file) and anything below a folder', () => {
    expect(pathWithinRoot('/home/me/a.jpg', 'a.jpg')).toEqual({ ok: true, value: '/home/me/a.jpg' });
    expect(pathWithinRoot('/home/me/photos', 'photos/x/..y')).toEqual({ ok: true, value: '/home/me/photos/x/..y' });
  });

  it('refuses every way out of the picked root', () => {
    for (const hostile of ['photos/../../../etc/passwd', '../photos/a.jpg', 'other/a.jpg', '/etc/passwd', 'photos//a', 'photos/./a', 'photos/a\0b', '..']) {
      expect(codeOf(pathWithinRoot('/home/me/photos', hostile)), hostile).toBe('PATH_OUTSIDE_PICK');
    }
    // A sibling whose name starts like the root is not inside it.
    expect(codeOf(pathWithinRoot('/home/me/photos', 'photos-private/a.jpg'))).toBe('PATH_OUTSIDE_PICK');
  });
});
