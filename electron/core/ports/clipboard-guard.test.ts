import { describe, expect, it } from 'vitest';
import { createClipboardGuard } from './clipboard-guard';
import { createRecordingDesktop } from './recording-desktop';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('clipboard guard', () => {
  it('clears a copied secret after a while, but not what the user copied since', async () => {
    const desktop = createRecordingDesktop();
    const guard = createClipboardGuard(desktop, 50);
    expect(await guard.copySecret('s3cret')).toEqual({ clearsInSeconds: 0 });
    expect(await desktop.readClipboard()).toBe('s3cret');
    await wait(120);
    expect(await desktop.readClipboard()).toBe('');

    await guard.copySecret('another');
    await desktop.writeClipboard('my own notes');
    await wait(120);
    expect(await desktop.readClipboard()).toBe('my own notes');
  });

  it('clears at once when the app quits', async () => {
    const desktop = createRecordingDesktop();
    const guard = createClipboardGuard(desktop, 60_000);
    await guard.copySecret('s3cret');
    await guard.flush();
    expect(await desktop.readClipboard()).toBe('');
  });
});
