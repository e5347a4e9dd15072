import { config } from 'zod';

// The page's CSP forbids eval: zod's JIT probes `new Function` on first parse, which the browser reports
// as a CSP violation. Jitless parsing is plenty fast for the renderer's small schemas.
config({ jitless: true });
