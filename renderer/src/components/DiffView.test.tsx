import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DiffView } from './DiffView';

// Glyphs CodeMirror uses by default that many platform fonts lack (drawn as empty boxes).
const RARE_GLYPHS = /[⦚⌄›⇜⇝]/u;

const lines = (changed: number) => JSON.stringify({ steps: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`step${i}`, { width: i === 15 ? changed : i }])) }, null, 2);

describe('DiffView', () => {
  afterEach(cleanup);

  it('marks changed lines and collapses unchanged ones without glyphs a font may lack', async () => {
    render(<DiffView before={lines(100)} after={lines(300)} label="Template content" />);
    const root = screen.getByTestId('template-diff').shadowRoot!;
    await waitFor(() => expect(root.querySelectorAll('.cm-collapsedLines').length).toBeGreaterThan(0));
    const collapsed = root.querySelector('.cm-collapsedLines')!;
    expect(collapsed.textContent).toMatch(/^\d+ unchanged lines \(click to show\)$/);
    expect(root.querySelector('.cm-foldGutter')).toBeNull();
    expect(root.textContent ?? '').not.toMatch(RARE_GLYPHS);
    // The styles the editor put in its shadow root: the collapsed-lines marks are an SVG, not "⦚".
    const css = root.adoptedStyleSheets.flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)).join('\n');
    const marks = css.split('\n').filter((rule) => /cm-collapsedLines::?before/.test(rule));
    expect(marks.some((rule) => /mask-image: url\("data:image\/svg\+xml/.test(rule))).toBe(true);
    expect(root.textContent).toContain('300');
  });
});
