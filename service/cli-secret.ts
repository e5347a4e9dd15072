import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './store/private-files';

/** The environment variable the CLI takes the Auth Secret from: unlike a flag, `ps` does not show it. */
export const AUTH_SECRET_ENV = 'ASSEMBLYLINE_AUTH_SECRET';
/** Where the CLI keeps a secret it generated (or found in the database), for the user to read. */
export const AUTH_SECRET_FILE_NAME = 'auth-secret';

export interface SecretSources {
  flag?: string | undefined;
  file?: string | undefined;
  env?: string | undefined;
}

export interface ChosenSecret {
  secret: string | undefined;
  /** How it was given, for the start-up lines (never the secret itself). */
  source: 'flag' | 'file' | 'env' | 'none';
  warnings: string[];
}

/**
 * The Auth Secret from `--auth-secret-file`, `ASSEMBLYLINE_AUTH_SECRET` or (visible in `ps`, so only
 * with a warning) `--auth-secret`. A file's one trailing newline is dropped, as `echo` writes one.
 * Throws with a message for the user when the sources conflict or the file is unusable.
 */
export function chooseAuthSecret(s: SecretSources, readFile: (path: string) => { text: string; mode: number } = readSecretFile): ChosenSecret {
  if (s.flag !== undefined && s.file !== undefined) throw new Error('give the auth secret one way: --auth-secret-file or --auth-secret, not both');
  if (s.file !== undefined) {
    const { text, mode } = readFile(s.file);
    const secret = text.replace(/\r?\n$/, '');
    if (secret === '') throw new Error(`--auth-secret-file ${s.file} is empty`);
    const warnings = (mode & 0o077) !== 0 ? [`${s.file} can be read by other users (mode ${(mode & 0o777).toString(8)}): run chmod 600 on it`] : [];
    return { secret, source: 'file', warnings };
  }
  if (s.flag !== undefined) {
    if (s.flag === '') throw new Error('--auth-secret is empty');
    return {
      secret: s.flag,
      source: 'flag',
      warnings: [`--auth-secret shows the secret to every user of this machine (ps, /proc): use ${AUTH_SECRET_ENV} or --auth-secret-file instead`],
    };
  }
  if (s.env !== undefined && s.env !== '') return { secret: s.env, source: 'env', warnings: [] };
  return { secret: undefined, source: 'none', warnings: [] };
}

function readSecretFile(path: string): { text: string; mode: number } {
  try {
    return { text: readFileSync(path, 'utf8'), mode: statSync(path).mode };
  } catch (cause) {
    throw new Error(`--auth-secret-file ${path} cannot be read: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`);
  }
}

/** Writes the secret to `<dataDir>/auth-secret` (0600, atomically) and returns that path. */
export function storeAuthSecret(dataDir: string, secret: string): string {
  const file = join(dataDir, AUTH_SECRET_FILE_NAME);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${secret}\n`, { mode: PRIVATE_FILE_MODE });
  chmodSync(tmp, PRIVATE_FILE_MODE);
  renameSync(tmp, file);
  return file;
}
