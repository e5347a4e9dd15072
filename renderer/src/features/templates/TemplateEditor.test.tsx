import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../../../shared/result';
import { createFakeBridge, sampleTemplate } from '../../bridge/test/fake-bridge';
import { renderWithBridge } from '../../bridge/test/render-with-bridge';
import { TemplateEditor } from './TemplateEditor';

const withContent = (content: unknown) => createFakeBridge({ 'templates:get': (req) => ok(sampleTemplate({ id: req.id, content })) });

describe('TemplateEditor lint: encoding stack versions', () => {
  afterEach(cleanup);

  it('marks a stack version the spec does not list at its line, with the code, and blocks saving', async () => {
    const content = {
      steps: {
        ':original': { robot: '/upload/handle' },
        video: { robot: '/video/encode', use: ':original', preset: 'iphone', ffmpeg_stack: 'banana' },
      },
    };
    renderWithBridge(<TemplateEditor id="tpl-1" />, withContent(content));
    const check = await screen.findByTestId('template-check');
    // Line 10 of the formatted content is the step's "ffmpeg_stack" key.
    await waitFor(() => expect(check.textContent).toContain('Line 10: Step "video" (/video/encode): ffmpeg_stack "banana" is not a stack version'));
    expect(check.textContent).toContain('VIDEO_ENCODE_VALIDATION');
    const save = screen.getByRole('button', { name: 'Review and save…' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(save.title).toBe('Fix the problems in the content to save.');
  });

  it('accepts v7, legacy v6.0.0 and deprecated v5.x as the spec does', async () => {
    const content = {
      steps: {
        ':original': { robot: '/upload/handle' },
        a: { robot: '/video/encode', use: ':original', ffmpeg_stack: 'v7' },
        b: { robot: '/video/thumbs', use: ':original', ffmpeg_stack: 'v6.0.0' },
        c: { robot: '/audio/encode', use: ':original', ffmpeg_stack: 'v5.1' },
      },
    };
    renderWithBridge(<TemplateEditor id="tpl-2" />, withContent(content));
    const check = await screen.findByTestId('template-check');
    await waitFor(() => expect(check.textContent).toContain('Looks valid.'));
    // Accepted, but the spec calls them legacy and deprecated: a note at the line, saving stays possible.
    const notes = screen.getByTestId('template-notes');
    expect(notes.textContent).toContain('Line 14: Step "b": ffmpeg_stack "v6.0.0" is a legacy exact version (still accepted); "v7" is recommended.');
    expect(notes.textContent).toContain('Line 19: Step "c": ffmpeg_stack "v5.1" is deprecated (still accepted); "v7" is recommended.');
    expect(notes.textContent).not.toContain('Step "a"');
    expect((screen.getByRole('button', { name: 'Review and save…' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
