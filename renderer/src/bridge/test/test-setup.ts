import { configure } from '@testing-library/react';

// Renderer tests run beside the service's integration tests on a 2-core machine: a first render of the
// whole App can take longer than Testing Library's 1 s default for findBy/waitFor there. A wait that is met
// returns at once, so a longer ceiling costs passing tests nothing.
configure({ asyncUtilTimeout: 5_000 });
