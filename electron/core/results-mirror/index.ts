/**
 * Results to disk and job manifests: what other parts of core (results:mirror, watch folders) use.
 * docs/desktop.md "Results to disk" and "Job manifests".
 */
export { mirrorResults, MirrorErrorCode, type FileOutcome, type MirrorOptions } from './mirror-run';
export { matchInputs, planMirror, type LocalInput, type MirrorEntry, type MirrorInput, type MirrorSource } from './mirror-plan';
export { buildManifest, manifestCsv, manifestJson, manifestRows, type ManifestAssembly } from './manifest';
