// /image/generate through the operator's model server (the /ai/chat one): one POST to its
// /images/generations (LocalAI, vLLM-Omni, stable-diffusion.cpp's server, OpenAI), the images returned
// as base64 and written in the step's format. A server without that request fails the step with
// IMAGE_GENERATE_NOT_OFFERED; no image is ever made up here.

import sharp, { type Sharp } from 'sharp';
import { describeUpload, newFileId, type StoredFile } from './file-record';
import { configured, modelBase } from './model-robots';
import { outputDir, outputFile } from './output-path';
import type { RobotFileOutcome, SourceRunner } from './robot-types';

const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

/** `size` for the request: width × height as given, else from aspect_ratio on a 1024 long side, else 1024x1024. Pure. */
export function requestSize(params: Record<string, unknown>): string {
  const w = Number(params.width);
  const h = Number(params.height);
  if (Number.isFinite(w) && w > 0 && Number.isFinite(h) && h > 0) return `${Math.round(w)}x${Math.round(h)}`;
  const ratio = typeof params.aspect_ratio === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*[:/x]\s*(\d+(?:\.\d+)?)\s*$/.exec(params.aspect_ratio) : null;
  const [a, b] = ratio ? [Number(ratio[1]), Number(ratio[2])] : [1, 1];
  if (!(a > 0 && b > 0)) return '1024x1024';
  // Multiples of 64, as image models take them.
  const side = (n: number) => Math.max(64, Math.round(n / 64) * 64);
  return a >= b ? `1024x${side((1024 * b) / a)}` : `${side((1024 * a) / b)}x1024`;
}

const FORMATS: Record<string, { ext: string; encode: (s: Sharp) => Sharp }> = {
  png: { ext: 'png', encode: (s) => s.png() },
  jpg: { ext: 'jpg', encode: (s) => s.jpeg({ quality: 92 }) },
  jpeg: { ext: 'jpg', encode: (s) => s.jpeg({ quality: 92 }) },
  webp: { ext: 'webp', encode: (s) => s.webp({ quality: 92 }) },
};

export const runImageGenerate: SourceRunner = async (job) => {
  const { params, signal } = job;
  const config = configured(job);
  if ('ok' in config) return config;
  const prompt = [String(params.prompt ?? ''), typeof params.style === 'string' && params.style !== '' ? `Style: ${params.style}.` : ''].filter(Boolean).join('\n');
  const count = Number.isInteger(Number(params.num_outputs)) ? Math.min(10, Math.max(1, Number(params.num_outputs))) : 1;
  const format = FORMATS[typeof params.format === 'string' ? params.format : 'png'] ?? FORMATS.png!;
  const base = modelBase(config.endpoint);
  const url = `${base}/images/generations`;
  const body = {
    model: typeof params.model === 'string' && params.model !== '' && params.model !== 'auto' ? params.model : config.model,
    prompt,
    n: count,
    size: requestSize(params),
    response_format: 'b64_json',
    ...(typeof params.seed === 'number' ? { seed: params.seed } : {}),
  };
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(config.timeoutMs)]),
    });
    text = await res.text();
  } catch (e) {
    if (signal.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
    return { ok: false, code: 'IMAGE_GENERATE_ERROR', message: `The model server ${url} could not be reached or gave no answer within ${config.timeoutMs} ms: ${(e as { cause?: Error }).cause?.message ?? (e as Error).message}.` };
  }
  if (res.status === 404 || res.status === 405 || res.status === 501) {
    return { ok: false, code: 'IMAGE_GENERATE_NOT_OFFERED', message: `The model server at ${base} does not make images (POST /images/generations answered HTTP ${res.status}); use a server with an image model (LocalAI, stable-diffusion.cpp's server, vLLM-Omni).` };
  }
  if (!res.ok) return { ok: false, code: 'IMAGE_GENERATE_ERROR', message: `The model server ${url} answered HTTP ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}.` };
  let data: { b64_json?: unknown }[];
  try {
    data = (JSON.parse(text) as { data?: { b64_json?: unknown }[] }).data ?? [];
  } catch {
    return { ok: false, code: 'IMAGE_GENERATE_ERROR', message: `The model server ${url} did not answer with JSON.` };
  }
  const images = data.map((d) => (typeof d.b64_json === 'string' ? Buffer.from(d.b64_json, 'base64') : null));
  // A server that answers with URLs only is not followed: those may point anywhere.
  if (images.length === 0 || images.some((b) => b === null || b.length === 0 || b.length > MAX_IMAGE_BYTES)) {
    return { ok: false, code: 'IMAGE_GENERATE_ERROR', message: `The model server ${url} gave no images as base64 (b64_json); the local service asks for response_format b64_json and does not fetch image URLs.` };
  }
  const files: StoredFile[] = [];
  for (const [i, bytes] of images.entries()) {
    const dir = await outputDir(job.outDir, newFileId());
    const name = images.length === 1 ? `generated.${format.ext}` : `generated-${i + 1}.${format.ext}`;
    const target = outputFile(dir, name);
    try {
      await format.encode(sharp(bytes!)).toFile(target);
    } catch (e) {
      return { ok: false, code: 'IMAGE_GENERATE_ERROR', message: `Image ${i + 1} of the model server's answer is no image this service reads: ${(e as Error).message}.` } satisfies RobotFileOutcome;
    }
    const file = await describeUpload({ localPath: target, name, field: null });
    file.meta = { ...file.meta, prompt: String(params.prompt ?? ''), model: body.model };
    files.push(file);
  }
  return { ok: true, files };
};
