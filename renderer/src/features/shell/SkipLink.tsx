import type { MouseEvent } from 'react';

/**
 * The first Tab stop: jumps past the sidebar and the header to the screen's content (<main id="main">).
 * Focus is moved by hand rather than by following `#main`, so the URL (which holds the route) is untouched.
 */
export const SkipLink = ({ target = 'main' }: { target?: string }) => {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    document.getElementById(target)?.focus();
  };
  return (
    <a className="skip-link" href={`#${target}`} onClick={skip}>
      Skip to content
    </a>
  );
};
