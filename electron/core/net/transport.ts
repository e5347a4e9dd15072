// How core reaches one workspace's deployment: the fetch (and, for tus-js-client's Node stack, the TLS
// options) that trust the system's certificate authorities plus, when the workspace names one, its own CA
// (a company deployment's): used only for that workspace's requests — API, tus, update streams, result
// files. Verification is never turned off. A certificate the app does not trust is said to be one
// (tlsProblem), not "fetch failed".
import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';
import { err, ok, type Result } from '../../../shared/result';

export interface Transport {
  fetch: typeof fetch;
  /** The CA list for Node's https (tus-js-client's NodeHttpStack); null: Node's default. */
  ca: string[] | null;
}

/** The system's trust, through the global fetch (looked up per call, so a test's stub applies). */
export const SYSTEM_TRANSPORT: Transport = { fetch: (input, init) => fetch(input, init), ca: null };

export const CA_FILE_INVALID = 'CA_FILE_INVALID';
export const TLS_CERT_UNTRUSTED = 'TLS_CERT_UNTRUSTED';

export interface CaInfo {
  subject: string;
  /** ISO time the CA certificate ends. */
  validTo: string;
}

/** Largest CA file taken (a bundle of a few certificates is a few KiB). */
export const MAX_CA_PEM = 256 * 1024;

/** Each certificate of a PEM bundle, or why the text is not one. */
export function parseCaPem(pem: string): Result<{ certs: string[]; info: CaInfo }> {
  if (pem.length > MAX_CA_PEM) return err(CA_FILE_INVALID, 'The CA file is too large for a certificate (over 256 KiB).');
  const certs = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (certs.length === 0) return err(CA_FILE_INVALID, 'The CA file holds no certificate: choose the PEM file (-----BEGIN CERTIFICATE-----) of the certificate authority.');
  try {
    const first = new X509Certificate(certs[0]!);
    for (const c of certs.slice(1)) new X509Certificate(c);
    const subject = /CN=([^\n,]+)/.exec(first.subject)?.[1] ?? first.subject.replace(/\n/g, ', ');
    return ok({ certs: certs.map((c) => `${c}\n`), info: { subject, validTo: new Date(first.validTo).toISOString() } });
  } catch {
    return err(CA_FILE_INVALID, 'The CA file holds a certificate that cannot be read: choose the PEM file of the certificate authority.');
  }
}

const cache = new Map<string, Transport>();

/** The transport of a workspace that names `caPem` (null: the system's). One per CA text. */
export function transportFor(caPem: string | null | undefined): Transport {
  if (!caPem) return SYSTEM_TRANSPORT;
  const known = cache.get(caPem);
  if (known) return known;
  const parsed = parseCaPem(caPem);
  // A stored CA that no longer parses adds nothing: requests then fail as untrusted, which says what to fix.
  const ca = [...rootCertificates, ...(parsed.ok ? parsed.value.certs : [])];
  const dispatcher = new Agent({ connect: { ca } });
  const transport: Transport = {
    fetch: (input, init) => fetch(input, { ...init, dispatcher } as unknown as RequestInit),
    ca,
  };
  cache.set(caPem, transport);
  return transport;
}

const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
]);

/** The code of a TLS failure anywhere in an error's cause chain. */
function tlsCode(cause: unknown): string | null {
  for (let e = cause, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNTRUSTED.has(code) || /^CERT_|^ERR_TLS_CERT_ALTNAME_INVALID$/.test(code))) return code;
    // tus-js-client keeps the failure as causingError.
    const causing = (e as { causingError?: unknown }).causingError;
    if (causing) {
      const inner = tlsCode(causing);
      if (inner) return inner;
    }
  }
  return null;
}

/**
 * What the user needs to know when a request failed on the server's certificate, or null when it did not.
 * Never quotes the certificate (its names are the other side's words).
 */
export function tlsProblem(cause: unknown, url: string): { code: string; message: string } | null {
  const code = tlsCode(cause);
  if (!code) return null;
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // keep the raw text
  }
  const fix = 'If your company runs this deployment with its own certificate authority, choose its CA file (PEM) in Workspaces.';
  if (code === 'CERT_HAS_EXPIRED') return { code: TLS_CERT_UNTRUSTED, message: `The certificate of ${origin} has expired, so the app does not trust it (${code}).` };
  if (code === 'CERT_NOT_YET_VALID') return { code: TLS_CERT_UNTRUSTED, message: `The certificate of ${origin} is not valid yet, so the app does not trust it — or this computer's clock is wrong (${code}).` };
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return { code: TLS_CERT_UNTRUSTED, message: `The certificate of ${origin} is not for this host name, so the app does not trust it (${code}).` };
  return { code: TLS_CERT_UNTRUSTED, message: `The app does not trust the certificate of ${origin}: no certificate authority it trusts signed it (${code}). ${fix}` };
}
