// Robots that need a model the machine does not ship — /image/describe and /speech/transcribe — run
// through the OpenAI-compatible model server the operator configured for /ai/chat (llama.cpp, Ollama,
// vLLM, LocalAI, a whisper server): describing is one chat-completions request with the image, transcribing
// one POST to the server's /audio/transcriptions. Without a configured server, or when the server does not
// offer the capability, the step fails with a code that says which (`<ROBOT>_NOT_CONFIGURED`,
// `<ROBOT>_NOT_OFFERED`), never with made-up results. The vendor's `format` (json, meta, text, srt, webvtt)
// and `granularity` (full, list) shape the result as the hosted robots do.

import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { ChatError, completeChat, completionsUrl, type ChatConfig } from './chat-endpoint';
import { runFfmpeg } from './ffmpeg';
import { describeResult, type StoredFile } from './file-record';
import { outputDir, outputFile, scratchFile } from './output-path';
import type { RobotFileOutcome, RobotJob, RobotRunner } from './robot-types';

const IMAGE_MIMES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export const prefixOf = (robot: string): string => robot.slice(1).replace(/\//g, '_').toUpperCase();

export function configured(job: Pick<RobotJob, 'chat' | 'robot'>): (ChatConfig & { endpoint: string }) | RobotFileOutcome {
  const config = job.chat?.config;
  if (config?.endpoint) return { ...config, endpoint: config.endpoint };
  return {
    ok: false,
    code: `${prefixOf(job.robot)}_NOT_CONFIGURED`,
    message: `${job.robot} needs a model this computer does not ship: start the local service with --chat-endpoint <url of an OpenAI-compatible model server> (in the app: Workspaces, Chat model of the local service); that server then ${CAPABILITY[job.robot] ?? 'runs the model'}.`,
  };
}

const CAPABILITY: Record<string, string> = {
  '/speech/transcribe': 'transcribes (POST /audio/transcriptions)',
  '/image/describe': 'describes the image (a vision model)',
  '/text/translate': 'translates (a chat model)',
  '/image/generate': 'makes the images (POST /images/generations)',
};

/** The server's base (`…/v1`) from the configured endpoint, which may be the full chat-completions URL. */
export const modelBase = (endpoint: string): string => completionsUrl(endpoint).replace(/\/chat\/completions$/, '');

export interface Label {
  name: string;
  confidence: number;
}

/** Labels from whatever JSON the model gave: `{labels:[…]}`, a bare list, strings or {name, confidence}. Pure. */
export function readLabels(answer: unknown): Label[] | null {
  const list = Array.isArray(answer) ? answer : typeof answer === 'object' && answer !== null ? (answer as { labels?: unknown; descriptions?: unknown }).labels ?? (answer as { descriptions?: unknown }).descriptions : null;
  if (!Array.isArray(list)) return null;
  const out: Label[] = [];
  for (const item of list) {
    if (typeof item === 'string' && item.trim() !== '') out.push({ name: item.trim(), confidence: 100 });
    else if (typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string') {
      const c = Number((item as { confidence?: unknown }).confidence);
      // Models give 0..1 or 0..100: read both as a percentage.
      out.push({ name: (item as { name: string }).name.trim(), confidence: Number.isFinite(c) ? Math.round((c <= 1 ? c * 100 : Math.min(c, 100)) * 100) / 100 : 100 });
    }
  }
  return out;
}

export async function resultFile(job: RobotJob, body: string, ext: string, meta: Record<string, unknown>): Promise<StoredFile> {
  const dir = await outputDir(job.outDir, job.input.id);
  const target = outputFile(dir, job.input.basename, ext);
  await writeFile(target, body);
  return describeResult(job.input, target, `${job.input.basename}${ext}`, meta);
}

/** `format: "meta"`: no new content — the input passes on, a copy carrying the data in its meta. */
async function withMeta(job: RobotJob, meta: Record<string, unknown>): Promise<StoredFile> {
  const dir = await outputDir(job.outDir, job.input.id);
  const target = outputFile(dir, job.input.name);
  await copyFile(job.input.localPath, target);
  return describeResult(job.input, target, job.input.name, meta);
}

export const failed = (job: Pick<RobotJob, 'signal' | 'robot'>, e: unknown): RobotFileOutcome => {
  if (job.signal.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
  if (e instanceof ChatError) return { ok: false, code: `${prefixOf(job.robot)}_ERROR`, message: `Step ${job.robot}: ${e.message}` };
  throw e;
};

export const runImageDescribe: RobotRunner = async (job) => {
  const { input, params } = job;
  const mime = input.mime ?? '';
  if (!IMAGE_MIMES.includes(mime)) return { ok: false, code: 'INVALID_INPUT_ERROR', message: `/image/describe takes PNG, JPEG, WebP or GIF images; "${input.name}" is ${mime || 'of unknown type'}`, unsuitableInput: true };
  if (input.size > MAX_IMAGE_BYTES) return { ok: false, code: 'INVALID_INPUT_ERROR', message: `/image/describe sends images up to 20 MB; "${input.name}" has ${input.size} bytes`, unsuitableInput: true };
  const config = configured(job);
  if ('ok' in config) return config;
  const explicit = params.explicit_descriptions === true;
  const ask = explicit
    ? 'List only labels for explicit content in this image (nudity, violence, drugs, hate symbols); an empty list when there is none.'
    : 'List what this image shows: objects, people, animals, scenery, activities; no labels for explicit content.';
  const url = `data:${mime};base64,${(await readFile(input.localPath)).toString('base64')}`;
  let labels: Label[] | null;
  try {
    const reply = await completeChat(
      config,
      {
        model: config.model,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: 'You label images. Answer only with JSON: {"labels": [{"name": "<one or two words>", "confidence": <0-100>}]}, most confident first.' },
          { role: 'user', content: [{ type: 'text', text: ask }, { type: 'image_url', image_url: { url } }] },
        ],
      },
      job.signal,
    );
    const text = typeof reply.content === 'string' ? reply.content : '';
    try {
      labels = readLabels(JSON.parse(text.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, '')));
    } catch {
      labels = null;
    }
    if (labels === null) return { ok: false, code: 'IMAGE_DESCRIBE_ERROR', message: `The model server's answer for "${input.name}" held no list of labels: ${JSON.stringify(text.slice(0, 200))}. Use a vision model that answers in JSON.` };
  } catch (e) {
    return failed(job, e);
  }
  const descriptions = params.granularity === 'list' ? labels.map((l) => l.name) : labels;
  if (params.format === 'meta') return { ok: true, files: [await withMeta(job, { descriptions })] };
  if (params.format === 'text') return { ok: true, files: [await resultFile(job, labels.map((l) => l.name).join('\n'), '.txt', { model: config.model })] };
  return { ok: true, files: [await resultFile(job, JSON.stringify(descriptions, null, 2), '.json', { model: config.model })] };
};

const TRANSCRIPT_FORMATS: Record<string, { response: string; ext: string }> = {
  json: { response: 'verbose_json', ext: '.json' },
  meta: { response: 'json', ext: '' },
  text: { response: 'text', ext: '.txt' },
  srt: { response: 'srt', ext: '.srt' },
  webvtt: { response: 'vtt', ext: '.vtt' },
};

export const runSpeechTranscribe: RobotRunner = async (job) => {
  const { input, params, signal } = job;
  const hasAudio = input.mime?.startsWith('audio/') || (input.mime?.startsWith('video/') && Number(input.meta.num_audio_streams ?? 1) > 0);
  if (!hasAudio) return { ok: false, code: 'INVALID_INPUT_ERROR', message: `/speech/transcribe needs audio, but "${input.name}" has none (${input.mime ?? 'unknown type'})`, unsuitableInput: true };
  const config = configured(job);
  if ('ok' in config) return config;
  const format = TRANSCRIPT_FORMATS[typeof params.format === 'string' ? params.format : 'json'] ?? TRANSCRIPT_FORMATS.json!;
  const dir = await outputDir(job.outDir, input.id);
  // 16 kHz mono WAV: what every speech model reads, whatever the container and codec of the input.
  const wav = scratchFile(dir, '.speech.wav');
  const url = `${modelBase(config.endpoint)}/audio/transcriptions`;
  try {
    const pcm = await runFfmpeg(['-i', input.localPath, '-vn', '-ac', '1', '-ar', '16000', '-f', 'wav', '-y', wav], signal, 10 * 60_000);
    if (!pcm.ok) {
      if (pcm.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
      return { ok: false, code: 'INVALID_INPUT_ERROR', message: `The audio of "${input.name}" could not be decoded: ${pcm.message}`, unsuitableInput: true };
    }
    const form = new FormData();
    form.set('file', new Blob([await readFile(wav)], { type: 'audio/wav' }), `${input.basename}.wav`);
    form.set('model', config.model);
    form.set('response_format', format.response);
    const language = typeof params.source_language === 'string' ? params.source_language.split('-')[0]!.toLowerCase() : 'en';
    form.set('language', language);
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', body: form, headers: config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {}, signal: AbortSignal.any([signal, AbortSignal.timeout(config.timeoutMs)]) });
    } catch (e) {
      if (signal.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
      return { ok: false, code: 'SPEECH_TRANSCRIBE_ERROR', message: `The model server ${url} could not be reached or gave no answer within ${config.timeoutMs} ms: ${(e as { cause?: Error }).cause?.message ?? (e as Error).message}.` };
    }
    const text = await res.text();
    if (res.status === 404 || res.status === 405 || res.status === 501) {
      return { ok: false, code: 'SPEECH_TRANSCRIBE_NOT_OFFERED', message: `The model server at ${modelBase(config.endpoint)} does not transcribe speech (POST /audio/transcriptions answered HTTP ${res.status}); use a server with a speech model (whisper.cpp's server, LocalAI, vLLM, faster-whisper-server).` };
    }
    if (!res.ok) return { ok: false, code: 'SPEECH_TRANSCRIBE_ERROR', message: `The model server ${url} answered HTTP ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}.` };
    if (format.response === 'json' || format.response === 'verbose_json') {
      let parsed: { text?: unknown };
      try {
        parsed = JSON.parse(text) as { text?: unknown };
      } catch {
        return { ok: false, code: 'SPEECH_TRANSCRIBE_ERROR', message: `The model server ${url} did not answer with JSON.` };
      }
      if (typeof parsed.text !== 'string') return { ok: false, code: 'SPEECH_TRANSCRIBE_ERROR', message: `The model server ${url} answered without a transcript ("text").` };
      if (format.ext === '') return { ok: true, files: [await withMeta(job, { transcription: { text: parsed.text.trim() } })] };
      return { ok: true, files: [await resultFile(job, JSON.stringify(parsed, null, 2), format.ext, { model: config.model })] };
    }
    return { ok: true, files: [await resultFile(job, text, format.ext, { model: config.model })] };
  } finally {
    await rm(wav, { force: true });
  }
};
