import { configure } from '@testing-library/react';
import { vi } from 'vitest';

// Renderer tests run beside the service's integration tests on a 2-core machine: a first render of the
// whole App can take longer than Testing Library's 1 s default for findBy/waitFor there. A wait that is met
// returns at once, so a longer ceiling costs passing tests nothing.
configure({ asyncUtilTimeout: 5_000 });

// The renderer's files share a worker and its one happy-dom window (vitest.config.ts, isolate: false), so
// that React, Testing Library and the other packages are loaded once per worker, not once per file. Each
// file still starts as if alone: the app's own modules are evaluated again (stores, caches and counters
// made at module level are new), on real timers, in an empty document at the first file's address.
vi.useRealTimers();
vi.resetModules();
const first = globalThis as { __assemblylineFirstHref?: string };
first.__assemblylineFirstHref ??= window.location.href;
window.history.replaceState(null, '', first.__assemblylineFirstHref);
for (const name of document.documentElement.getAttributeNames()) document.documentElement.removeAttribute(name);
document.head.replaceChildren();
document.body.replaceChildren();
for (const name of document.body.getAttributeNames()) document.body.removeAttribute(name);
document.title = '';
window.localStorage.clear();
window.sessionStorage.clear();
