// Real Assemblies for the metering, bill and statistics tests, with the figures the test computes itself
// from what it sent and what the status records say. Tests only.
import { buildForm, inOneHourIso, jpeg, postAssembly, waitForEnd } from './service-fixture';
import type { LocalService } from '../index';

export interface UsageRun {
  /** Status records at the end, by outcome. */
  successful: Record<string, unknown>;
  erroneous: Record<string, unknown>;
  cancelled: Record<string, unknown>;
  /** Bytes the test sent: both multipart files, plus the part of the tus upload before the cancel. */
  uploadedBytes: number;
  uploadedFiles: number;
  /** Bytes /image/resize ran on successfully (the good JPEG only; the bad one failed). */
  resizeInputBytes: number;
  /** Sizes of the result files in the status records. */
  outputBytes: number;
  outputFiles: number;
}

const STEPS = {
  ':original': { robot: '/upload/handle' },
  thumb: { use: ':original', robot: '/image/resize', width: 40, height: 30 },
};

const b64 = (s: string): string => Buffer.from(s).toString('base64');

/**
 * One successful Assembly (a resize), one failing (a resize of bytes that are no image), and one cancelled
 * after 400 bytes of a 1,000-byte tus upload arrived.
 */
export async function runUsageAssemblies(service: Pick<LocalService, 'url' | 'authKey' | 'authSecret'>): Promise<UsageRun> {
  const sign = (fields: Record<string, string> = {}, files: Parameters<typeof buildForm>[0]['files'] = []) =>
    buildForm({ params: { auth: { key: service.authKey, expires: inOneHourIso() }, steps: STEPS }, secret: service.authSecret, fields, files });
  const good = await jpeg(320, 240);
  const bad = Buffer.from('this is not an image at all');
  const ok = await postAssembly(service.url, sign({}, [{ field: 'f', name: 'good.jpg', data: good, type: 'image/jpeg' }]));
  const successful = await waitForEnd(String(ok.body.assembly_ssl_url));
  const failing = await postAssembly(service.url, sign({}, [{ field: 'f', name: 'bad.jpg', data: bad, type: 'image/jpeg' }]));
  const erroneous = await waitForEnd(String(failing.body.assembly_ssl_url));

  const waiting = await postAssembly(service.url, sign({ num_expected_upload_files: '1' }));
  const assemblyUrl = String(waiting.body.assembly_ssl_url);
  const created = await fetch(`${service.url}/resumable/files/`, {
    method: 'POST',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '1000', 'Upload-Metadata': `assembly_url ${b64(assemblyUrl)},fieldname ${b64('f')},filename ${b64('part.bin')}` },
  });
  if (created.status !== 201) throw new Error(`tus create answered ${created.status}`);
  const uploadUrl = new URL(String(created.headers.get('location')), service.url).toString();
  const patched = await fetch(uploadUrl, {
    method: 'PATCH',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    body: new Uint8Array(400).fill(7),
  });
  if (patched.status !== 204) throw new Error(`tus PATCH answered ${patched.status}`);
  const cancelled = (await (await fetch(assemblyUrl, { method: 'DELETE' })).json()) as Record<string, unknown>;

  const results = Object.values((successful.results ?? {}) as Record<string, { size: number }[]>).flat();
  return {
    successful,
    erroneous,
    cancelled,
    uploadedBytes: good.length + bad.length + 400,
    uploadedFiles: 2,
    resizeInputBytes: good.length,
    outputBytes: results.reduce((n, f) => n + f.size, 0),
    outputFiles: results.length,
  };
}
