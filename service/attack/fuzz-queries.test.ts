// Property-based fuzzing of Template `keywords` / list query parameters (LIKE patterns full of `%` and `_`),
// of statistics params and bill months, and of tus headers (Upload-Length, Upload-Offset, Upload-Metadata junk, Tus-Resumable). A pattern that
// makes the service spin shows up as a hang: the service runs in its own process and is restarted.
import { FUZZERS } from './fuzz-properties';
import { fuzzSuite } from './fuzz-suite';

fuzzSuite(
  'fuzz: list queries, statistics params, bill months and tus headers',
  FUZZERS.filter((f) => f.name.startsWith('Template keywords') || f.name === 'statistics params and bill months' || f.name === 'tus headers'),
);
