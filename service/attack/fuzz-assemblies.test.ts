// Property-based fuzzing of POST /assemblies: random `params` (wrong types, huge numbers, deep nesting,
// odd `auth`) and random `steps` graphs (unknown robots, bad `use`, cycles, long chains), against one real
// local service. ASSEMBLYLINE_FUZZ_RUNS sets the cases per property; bench/fuzz-long.ts runs 10,000+.
import { FUZZERS } from './fuzz-properties';
import { fuzzSuite } from './fuzz-suite';

fuzzSuite('fuzz: Assembly params and steps', FUZZERS.filter((f) => f.name === 'Assembly params' || f.name === 'Assembly steps'));
