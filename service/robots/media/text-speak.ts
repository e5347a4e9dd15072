// /text/speak with espeak-ng (Debian's espeak-ng): `prompt`, or each text input, read aloud in
// `target_language` (BCP-47, default en-US) with a voice of the asked kind (female-1…3, male-1, and the
// two child voices as higher-pitched variants); `ssml: true` reads SSML markup. The speech is an MP3.
// `provider` (aws, gcp) names the vendor's cloud voices; the local service always speaks with espeak-ng.

import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { describeResult, newFileId, type StoredFile } from '../file-record';
import { outputDir, outputFile, scratchFile } from '../output-path';
import type { RobotFileOutcome, RobotJob, SourceRunner, RobotRunner } from '../robot-types';
import { wrongKind } from '../unsuitable-input';
import { ffmpegStep } from './media-job';
import { ESPEAK, espeakVoiceFor } from './tools';

/** Text inputs read aloud up to this size (the vendor's cloud voices take a few thousand characters). */
export const SPEAK_MAX_BYTES = 100_000;

/** espeak-ng variant and pitch per voice of the vendor's list. */
const VOICES: Record<string, { variant: string; pitch: number }> = {
  'female-1': { variant: 'f1', pitch: 50 },
  'female-2': { variant: 'f2', pitch: 50 },
  'female-3': { variant: 'f3', pitch: 50 },
  'female-child-1': { variant: 'f4', pitch: 85 },
  'male-1': { variant: 'm1', pitch: 50 },
  'male-child-1': { variant: 'm3', pitch: 85 },
};

function espeak(args: string[], text: string, signal: AbortSignal): Promise<{ ok: true } | { ok: false; message: string }> {
  return new Promise((resolve) => {
    const child = spawn(ESPEAK.command, args, { signal, stdio: ['pipe', 'ignore', 'pipe'], killSignal: 'SIGKILL' });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => (stderr = (stderr + c).slice(-4096)));
    child.on('error', (e) => resolve({ ok: false, message: e.message }));
    child.on('close', (code) => resolve(code === 0 ? { ok: true } : { ok: false, message: stderr.trim() || `espeak-ng exited with code ${code}` }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(text);
  });
}

async function speak(job: Omit<RobotJob, 'input'>, text: string, source: StoredFile, basename: string): Promise<RobotFileOutcome> {
  const { params, outDir, signal } = job;
  const language = typeof params.target_language === 'string' ? params.target_language : 'en-US';
  const voice = espeakVoiceFor(language);
  if (!voice) return { ok: false, code: 'TEXT_SPEAK_VALIDATION', message: `target_language "${language}" has no voice on this computer (espeak-ng).` };
  const kind = VOICES[typeof params.voice === 'string' ? params.voice : 'female-1'] ?? VOICES['female-1']!;
  const dir = await outputDir(outDir, source.id);
  const wav = scratchFile(dir, '.speech.wav');
  const ssml = params.ssml === true || params.ssml === 'true';
  const said = await espeak(['-v', `${voice}+${kind.variant}`, '-p', String(kind.pitch), ...(ssml ? ['-m'] : []), '--stdin', '-w', wav], text, signal);
  if (!said.ok) {
    if (signal.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
    return { ok: false, code: 'TEXT_SPEAK_ERROR', message: `Speaking failed: ${said.message}` };
  }
  job.onProgress?.(0.5);
  const target = outputFile(dir, basename, '.mp3');
  const failed = await ffmpegStep(['-i', wav, '-c:a', 'libmp3lame', '-b:a', '64k', target], { ...job, onProgress: undefined }, null, 'Encoding the speech');
  if (failed) return failed;
  return { ok: true, files: [await describeResult(source, target, `${basename}.mp3`, { target_language: language, voice: params.voice ?? 'female-1' })] };
}

/** With `use`: each text file (or, when `prompt` is set, the prompt once per input) read aloud. */
export const runTextSpeak: RobotRunner = async (job) => {
  const { input, params } = job;
  if (typeof params.prompt === 'string' && params.prompt !== '') return speak(job, params.prompt, input, input.basename);
  const textual = input.mime?.startsWith('text/') || input.mime === 'application/json' || input.mime === 'application/xml';
  if (!textual) return wrongKind('text', job.robot, input.mime);
  if (input.size > SPEAK_MAX_BYTES) return { ok: false, code: 'INVALID_INPUT_ERROR', message: `"${input.name}" is ${input.size} bytes; /text/speak reads text files up to ${SPEAK_MAX_BYTES} bytes.`, unsuitableInput: true };
  const text = (await readFile(input.localPath, 'utf8')).trim();
  if (text === '') return { ok: false, code: 'INVALID_INPUT_ERROR', message: `"${input.name}" holds no text to speak.`, unsuitableInput: true };
  return speak(job, text, input, input.basename);
};

/** Without `use`: the prompt alone, one file named speech.mp3 (its own original, like an import's). */
export const runTextSpeakPrompt: SourceRunner = async (job) => {
  const prompt = typeof job.params.prompt === 'string' ? job.params.prompt : '';
  const id = newFileId();
  const dir = await outputDir(job.outDir, id);
  const promptFile = scratchFile(dir, '.prompt.txt');
  await writeFile(promptFile, prompt);
  const source: StoredFile = {
    id, name: 'speech.txt', basename: 'speech', ext: 'txt', size: Buffer.byteLength(prompt), mime: 'text/plain', type: 'document', field: null, md5hash: null,
    original_id: id, original_name: 'speech.mp3', original_basename: 'speech', original_path: '/', original_md5hash: null, meta: {}, localPath: promptFile,
  };
  const out = await speak(job, prompt, source, 'speech');
  // The speech is its own original: its record names itself, not the prompt.
  if (out.ok) for (const f of out.files) Object.assign(f, { original_id: f.id, original_md5hash: f.md5hash });
  return out;
};
