// Where a storage or import step's connection comes from: the Template credentials it names, or its own
// (dynamic) parameters. With credentials, the destination (host, port, region…) comes from them alone: a
// step that names other hosts would send the credentials' secret there, so it is refused, not followed
// (docs/security.md "A stored secret goes only where it was saved"). Pure.

import type { CredentialLookup } from '../robot-types';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const shape = (c: unknown): string => (c === null ? 'null' : Array.isArray(c) ? 'an array' : `a ${typeof c}`);

export interface SourceRule {
  /** The credential type the robot takes (`s3`, `ftp`, `sftp`, …). */
  type: string;
  /** Keys that decide where the secret goes; the step may not set them apart from the credentials. */
  destinationKeys: readonly string[];
  /** Step keys kept beside the credentials' content (a path, a bucket: what to do, not where to send keys). */
  stepKeys: readonly string[];
  /** For the message when fields are missing: "host, user and password". */
  needs: string;
}

/** The fields to connect with, or the problem (a sentence without the robot's name). */
export function connectionSource(params: Record<string, unknown>, lookup: CredentialLookup, rule: SourceRule): Record<string, unknown> | string {
  if (params.credentials === undefined) return params;
  const name = str(params.credentials);
  const found = name ? lookup(name) : null;
  if (!found) return `there are no Template credentials named "${String(params.credentials)}"`;
  if (found.type !== rule.type) return `the Template credentials "${name}" are of type ${found.type}, not ${rule.type}`;
  const c = found.content;
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return `the Template credentials "${name}" hold ${shape(c)}, not the fields ${rule.type} needs (${rule.needs})`;
  const content = c as Record<string, unknown>;
  const moved = rule.destinationKeys.filter((k) => params[k] !== undefined && String(content[k] ?? '') !== String(params[k]));
  if (moved.length > 0) {
    return `${moved.join(' and ')} come${moved.length > 1 ? '' : 's'} from the Template credentials "${name}" (their secret goes only where it was saved); leave ${moved.length > 1 ? 'them' : 'it'} out of the step`;
  }
  const kept = Object.fromEntries(rule.stepKeys.filter((k) => params[k] !== undefined).map((k) => [k, params[k]]));
  return { ...content, ...kept };
}
