// Helpers for the service's own tests: a real service in a temp dir, signed forms, real image files,
// and an SSE reader over a real HTTP connection. Not imported by production code.
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { signParams, type SignatureAlgo } from '../auth/signature';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../index';

export interface Fixture {
  service: LocalService;
  dataDir: string;
  stop(): Promise<void>;
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function startFixture(options: Partial<LocalServiceOptions> = {}): Promise<Fixture> {
  const dataDir = options.dataDir ?? (await tempDir('svc-data-'));
  const service = await startLocalService({ ...options, dataDir });
  return {
    service,
    dataDir,
    stop: async () => {
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const inOneHourIso = (): string => new Date(Date.now() + 3600_000).toISOString();

export interface FormOptions {
  params: Record<string, unknown> | string;
  secret?: string;
  algo?: SignatureAlgo;
  fields?: Record<string, string>;
  files?: { field: string; name: string; data: Uint8Array; type?: string }[];
}

/** A multipart form as the SDKs send it: params, extra fields, signature, then files. */
export function buildForm(o: FormOptions): FormData {
  const raw = typeof o.params === 'string' ? o.params : JSON.stringify(o.params);
  const fd = new FormData();
  fd.set('params', raw);
  for (const [k, v] of Object.entries(o.fields ?? {})) fd.set(k, v);
  if (o.secret) fd.set('signature', signParams(raw, o.secret, o.algo ?? 'sha384'));
  for (const f of o.files ?? []) fd.append(f.field, new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }), f.name);
  return fd;
}

export async function postAssembly(base: string, form: FormData, path = '/assemblies', headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', body: form, headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Polls the status URL until the Assembly is no longer uploading/executing. */
export async function waitForEnd(url: string, timeoutMs = 20_000): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await getJson(url);
    if (body.error || (body.ok !== 'ASSEMBLY_UPLOADING' && body.ok !== 'ASSEMBLY_EXECUTING')) return body;
    if (Date.now() > until) throw new Error(`Assembly still ${String(body.ok)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function jpeg(width: number, height: number, color = '#c04020'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).jpeg({ quality: 80 }).toBuffer();
}

export async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 120, b: 255, alpha: 0.5 } } }).png().toBuffer();
}

export interface SseEvent {
  event: string;
  data: string;
}

/** Opens `update_stream_url` with node:http and collects events until the server ends the stream. */
export function readSse(url: string, onEvent?: (e: SseEvent) => void): { opened: Promise<number>; done: Promise<SseEvent[]> } {
  let resolveOpened!: (status: number) => void;
  const opened = new Promise<number>((r) => (resolveOpened = r));
  const done = new Promise<SseEvent[]>((resolve, reject) => {
    const events: SseEvent[] = [];
    const req = request(url, { headers: { Accept: 'text/event-stream' } }, (res) => {
      resolveOpened(res.statusCode ?? 0);
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let idx: number;
        while ((idx = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, idx);
          buffer = buffer.slice(idx + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length === 0) continue;
          const e = { event, data: data.join('\n') };
          events.push(e);
          onEvent?.(e);
        }
      });
      res.on('end', () => resolve(events));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  return { opened, done };
}

/**
 * A multipart upload to `/assemblies/{id}` whose connection drops after 64 KB of a promised 10 MB file;
 * returns the Assembly's status record once the service marked it REQUEST_ABORTED (or after ~5 s).
 */
export async function abortedUpload(serviceUrl: string, id: string, authKey: string): Promise<Record<string, unknown>> {
  const boundary = 'xxBOUNDARYxx';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n` +
    JSON.stringify({ auth: { key: authKey }, steps: { ':original': { robot: '/upload/handle' } } }) +
    `\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  await new Promise<void>((resolve) => {
    const req = request(`${serviceUrl}/assemblies/${id}`, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + 10_000_000) },
    });
    req.on('error', () => resolve());
    req.write(head);
    req.write(Buffer.alloc(64 * 1024, 7), () => {
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 100);
    });
  });
  let status: Record<string, unknown> = {};
  for (let i = 0; i < 100 && status.ok !== 'REQUEST_ABORTED'; i++) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await getJson(`${serviceUrl}/assemblies/${id}`)).body;
  }
  return status;
}
