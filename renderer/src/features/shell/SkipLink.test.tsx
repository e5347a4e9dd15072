import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SkipLink } from './SkipLink';

describe('SkipLink', () => {
  afterEach(cleanup);

  it('is the first Tab stop, moves the focus to the content and leaves the URL alone', () => {
    render(
      <div>
        <SkipLink />
        <nav aria-label="Main">
          <button type="button">Upload</button>
        </nav>
        <main id="main" tabIndex={-1}>
          <button type="button">First control</button>
        </main>
      </div>,
    );
    const link = screen.getByRole('link', { name: 'Skip to content' });
    expect(document.querySelectorAll('a, button')[0]).toBe(link);
    const before = window.location.href;
    fireEvent.click(link);
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect(window.location.href).toBe(before);
  });
});
