import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeBridge } from '../bridge/test/fake-bridge';
import { renderWithBridge } from '../bridge/test/render-with-bridge';
import { LocalThumbnail, ResultThumbnail } from './Thumbnail';

const PIXEL = 'data:image/jpeg;base64,/9j/4AAQ';

describe('Thumbnail', () => {
  afterEach(cleanup);

  it('shows a video’s poster frame with a play glyph and its length', async () => {
    const bridge = createFakeBridge({ 'results:thumbnail': () => ({ ok: true, value: { dataUrl: PIXEL, kind: 'video', duration: 72.4 } }) });
    renderWithBridge(<ResultThumbnail runId="r1" url="http://127.0.0.1:1/clip.mp4" kind="video" size={96} />, bridge);
    const thumb = screen.getByTestId('thumb');
    await waitFor(() => expect(thumb.dataset.preview).toBe('ready'));
    expect(thumb.querySelector('img')?.getAttribute('src')).toBe(PIXEL);
    expect(thumb.querySelector('.thumb-play')).not.toBeNull();
    expect(within(thumb).getByTestId('thumb-duration').textContent).toBe('1:12');
    expect(thumb.title).toBe('Video, 1:12');
  });

  it('keeps the type icon, without a play glyph, when no preview can be made (no ffmpeg, a corrupt file)', async () => {
    const bridge = createFakeBridge({ 'files:thumbnail': () => ({ ok: true, value: { dataUrl: null, kind: 'audio', duration: null } }) });
    renderWithBridge(<LocalThumbnail handle="fh_1" relativePath="music/a.flac" kind="audio" size={32} />, bridge);
    await waitFor(() => expect(bridge.calls.some((c) => c.channel === 'files:thumbnail')).toBe(true));
    const thumb = screen.getByTestId('thumb');
    expect(thumb.dataset.preview).toBe('icon');
    expect(thumb.querySelector('svg')).not.toBeNull();
    expect(thumb.querySelector('.thumb-play, img')).toBeNull();
    expect(within(thumb).queryByTestId('thumb-duration')).toBeNull();
  });

  it('asks core for nothing about a file that is not image, video or audio', async () => {
    const bridge = createFakeBridge();
    renderWithBridge(<LocalThumbnail handle="fh_1" relativePath="notes.txt" kind="other" size={32} />, bridge);
    await new Promise((r) => setTimeout(r, 200));
    expect(bridge.calls.filter((c) => c.channel === 'files:thumbnail')).toEqual([]);
    expect(screen.getByTestId('thumb').dataset.kind).toBe('other');
  });
});
