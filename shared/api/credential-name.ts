/**
 * The Template credentials name rule, one place for the local service, core and the form.
 *
 * The Node SDK's zod schema says "at least 4 characters, latin letters and dashes", but the real
 * service accepts more: the SDK's own live test creates `node-sdk-test-<ISO date>` (digits) and the
 * robot docs name credentials `YOUR_S3_CREDENTIALS` (underscores). So: at least 4 characters of latin
 * letters, digits, dashes and underscores. See docs/local-service.md "Template credentials names".
 */
export const CREDENTIAL_NAME_MIN = 4;
export const CREDENTIAL_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Shown under the name field and in the service's error message. */
export const CREDENTIAL_NAME_HINT = 'At least 4 characters: latin letters, digits, dashes (-) and underscores (_), e.g. prod_sftp or media-s3.';

const describeChar = (c: string): string => (c === ' ' ? 'spaces' : `"${c}"`);

/** What is wrong with a name, in words a user can act on, or null when it is fine. Pure. */
export function credentialNameProblem(name: string): string | null {
  if (name.length === 0) return `Give a name. ${CREDENTIAL_NAME_HINT}`;
  const bad = [...new Set([...name].filter((c) => !CREDENTIAL_NAME_PATTERN.test(c)))];
  if (bad.length > 0) return `Names cannot contain ${bad.slice(0, 5).map(describeChar).join(', ')}. ${CREDENTIAL_NAME_HINT}`;
  if (name.length < CREDENTIAL_NAME_MIN) return `Too short (${name.length} of at least ${CREDENTIAL_NAME_MIN} characters). ${CREDENTIAL_NAME_HINT}`;
  return null;
}

export const isCredentialName = (name: string): boolean => credentialNameProblem(name) === null;
