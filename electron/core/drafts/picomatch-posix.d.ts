// picomatch ships no types; this is the little of its API skip-rules.ts uses (the POSIX build: `\` is a
// character of a name, never a separator).
declare module 'picomatch/posix.js' {
  interface PicomatchOptions {
    nocase?: boolean;
    dot?: boolean;
    basename?: boolean;
  }
  function picomatch(glob: string | string[], options?: PicomatchOptions): (input: string) => boolean;
  export default picomatch;
}
