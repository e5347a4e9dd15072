// Property-based fuzzing of file names (unicode, `../`, `\`, NUL, very long, `:?#%`) through multipart and
// tus, into robots that name their output after the input; and of `archive_name`. The sandbox check fails
// on any file created or changed outside the service's data dir, or outside an Assembly's own folder.
import { FUZZERS } from './fuzz-properties';
import { fuzzSuite } from './fuzz-suite';

fuzzSuite('fuzz: file names', FUZZERS.filter((f) => f.name.startsWith('file names')));
