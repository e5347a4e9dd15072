// /http/import: brings files in from http(s) URLs (`url`: one, a list, or several joined by
// `url_delimiter`), with the vendor's `headers`, `max_file_size`, `range`, `force_name`, `fail_fast`,
// `ignore_errors` and `import_on_errors`. Every connection — the first and each redirect — goes only to
// addresses a notification could go to (service/notifications/notify-address.ts): loopback and public ones,
// never cloud metadata, private or link-local ones unless the operator opened them. The name is the one
// Content-Disposition gives, else the URL's last segment.

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { AddressRefused, addressRefusal, guardedLookup, type AddressPolicy, type LookupFunction } from '../../notifications/notify-address';
import type { StoredFile } from '../file-record';
import type { RobotFileOutcome, SourceRunner } from '../robot-types';
import { baseNameOf, byteRanges, ignoresErrors, importName, keepImported, rangedBody, TooLarge } from './imported-file';

export const MAX_REDIRECTS = 10;
/** Without `max_file_size`, the service's own cap on one imported file. */
export const DEFAULT_MAX_IMPORT_BYTES = 10 * 1024 * 1024 * 1024;
const CONNECT_AND_HEADERS_MS = 30_000;
const IDLE_MS = 60_000;

const fail = (code: string, message: string): RobotFileOutcome => ({ ok: false, code, message });

/** `url` as a list, split on `url_delimiter` (default "|"). Pure. */
export function importUrls(url: unknown, delimiter: unknown): string[] {
  const d = typeof delimiter === 'string' && delimiter !== '' ? delimiter : '|';
  const list = typeof url === 'string' ? url.split(d) : Array.isArray(url) ? url.filter((u): u is string => typeof u === 'string') : [];
  return list.map((u) => u.trim()).filter((u) => u !== '');
}

/** `headers` in the vendor's three spellings ("A: b" lines, [{A: "b"}], or one string) as one record. Pure. */
export function importHeaders(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const line = (text: string) => {
    const i = text.indexOf(':');
    if (i > 0) out[text.slice(0, i).trim()] = text.slice(i + 1).trim();
  };
  if (typeof v === 'string') v.split(/\r?\n/).forEach(line);
  else if (Array.isArray(v)) {
    for (const h of v) {
      if (typeof h === 'string') line(h);
      else if (typeof h === 'object' && h !== null) Object.assign(out, Object.fromEntries(Object.entries(h as object).map(([k, x]) => [k, String(x)])));
    }
  }
  else if (typeof v === 'object' && v !== null) Object.assign(out, Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])));
  // Header values may not carry line breaks (they would smuggle more headers); names must be tokens.
  return Object.fromEntries(Object.entries(out).filter(([k, x]) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k) && !/[\r\n]/.test(x)));
}

/** The file name of a Content-Disposition header (filename* first), or null. Pure. */
export function dispositionName(header: string | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[2]!.trim());
    } catch {
      /* fall through to filename= */
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header);
  if (!plain) return null;
  const name = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1]!.trim();
  return baseNameOf(name.replace(/\\/g, '/')) || null;
}

/** A failure with the vendor's code for it: the server refused (ACCESS_DENIED), had nothing (NOT_FOUND), or else. */
class ImportFailure extends Error {
  constructor(
    message: string,
    readonly code: 'HTTP_IMPORT_FAILURE' | 'HTTP_IMPORT_ACCESS_DENIED' | 'HTTP_IMPORT_NOT_FOUND' = 'HTTP_IMPORT_FAILURE',
  ) {
    super(message);
  }
}

interface Fetched {
  response: IncomingMessage;
  finalUrl: URL;
}

/** GET with redirects followed by hand: each hop's URL and address checked like the first. */
async function get(rawUrl: string, headers: Record<string, string>, policy: AddressPolicy, lookup: LookupFunction | undefined, signal: AbortSignal): Promise<Fetched> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ImportFailure(`"${rawUrl}" is not a URL`);
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ImportFailure(`only http and https URLs can be imported (got ${url.protocol.replace(/:$/, '')})`);
    if (url.username || url.password) throw new ImportFailure('a URL with a user name or password in it is not imported; put credentials in headers');
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    // An address in the URL never reaches the lookup: checked here.
    if (isIP(literal)) {
      const why = addressRefusal(literal, literal, policy);
      if (why) throw new ImportFailure(why.replace('does not send notifications there', 'does not import from there'));
    }
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: 'GET',
        headers: { 'user-agent': 'Assemblyline local service (/http/import)', ...headers },
        lookup: guardedLookup(policy, lookup) as never,
        signal,
        timeout: CONNECT_AND_HEADERS_MS,
      });
      req.once('response', resolve);
      req.once('timeout', () => req.destroy(new ImportFailure(`no answer within ${CONNECT_AND_HEADERS_MS / 1000} s`)));
      req.once('error', reject);
      req.end();
    }).catch((e: Error) => {
      if (e instanceof AddressRefused) throw new ImportFailure(e.message.replace('does not send notifications there', 'does not import from there'));
      throw e;
    });
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw new ImportFailure(`more than ${MAX_REDIRECTS} redirects`);
      url = new URL(response.headers.location, url);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      const code = status === 401 || status === 403 ? 'HTTP_IMPORT_ACCESS_DENIED' : status === 404 || status === 410 ? 'HTTP_IMPORT_NOT_FOUND' : 'HTTP_IMPORT_FAILURE';
      throw new ImportFailure(`the server answered ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`, code);
    }
    response.setTimeout(IDLE_MS, () => response.destroy(new ImportFailure(`no data for ${IDLE_MS / 1000} s`)));
    return { response, finalUrl: url };
  }
}

export const runHttpImport: SourceRunner = async ({ robot, params, outDir, signal, network }) => {
  const options = network ?? { policy: {} };
  const urls = importUrls(params.url, params.url_delimiter);
  if (urls.length === 0) return fail('HTTP_IMPORT_VALIDATION', `${robot}: give "url" (an http or https URL, or a list of them).`);
  const headers = importHeaders(params.headers);
  const maxBytes = typeof params.max_file_size === 'number' && params.max_file_size > 0 ? Math.min(params.max_file_size, DEFAULT_MAX_IMPORT_BYTES) : DEFAULT_MAX_IMPORT_BYTES;
  const ranges = byteRanges(params.range);
  if (ranges === null) return fail('HTTP_IMPORT_VALIDATION', `${robot}: range must be like "0-99" or a list of such ranges.`);
  const files: StoredFile[] = [];
  const failures: string[] = [];
  for (const [i, url] of urls.entries()) {
    try {
      const first = await get(url, ranges[0] ? { ...headers, Range: ranges[0] } : headers, options.policy, options.lookup, signal);
      const { response, finalUrl } = first;
      const declared = Number(response.headers['content-length']);
      if (ranges.length <= 1 && Number.isFinite(declared) && declared > maxBytes) {
        response.destroy();
        throw new TooLarge(maxBytes);
      }
      const own = dispositionName(response.headers['content-disposition']) ?? (baseNameOf(finalUrl.pathname) || finalUrl.hostname);
      // Several ranges: the first answer is the first range; the others are asked of the final URL.
      let firstUsed = false;
      const body =
        ranges.length <= 1
          ? response
          : rangedBody(ranges, async (range) => {
              if (!firstUsed) {
                firstUsed = true;
                return response;
              }
              return (await get(finalUrl.href, { ...headers, Range: range }, options.policy, options.lookup, signal)).response;
            });
      const file = await keepImported(outDir, importName(params.force_name, i, own), body, { maxBytes, signal });
      files.push({ ...file, import_url: finalUrl.href });
    } catch (e) {
      if (signal.aborted) return fail('HTTP_IMPORT_FAILURE', `${robot}: canceled.`);
      const why = e instanceof TooLarge ? `it is larger than max_file_size (${e.limit} bytes)` : (e as Error).message;
      if (ignoresErrors(params.ignore_errors, 'import')) continue;
      const failure = `${robot} could not import ${url}: ${why}`;
      if (params.fail_fast === true || urls.length === 1) return fail(e instanceof ImportFailure ? e.code : 'HTTP_IMPORT_FAILURE', failure);
      failures.push(failure);
    }
  }
  // Without fail_fast, every URL is tried; any that failed still fails the step, naming them all.
  if (failures.length > 0) return fail('HTTP_IMPORT_FAILURE', failures.join(' '));
  return { ok: true, files };
};
