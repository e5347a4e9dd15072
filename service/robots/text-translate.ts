// /text/translate through the operator's chat model (the /ai/chat server): each text file is sent in
// pieces of whole paragraphs, each piece asked to be translated and nothing else, and the answers joined
// in order into a file of the input's name. Like the vendor's robot it takes text/* files only.

import { readFile } from 'node:fs/promises';
import { ChatError, completeChat } from './chat-endpoint';
import { configured, failed, resultFile } from './model-robots';
import type { RobotRunner } from './robot-types';

const MAX_TEXT_BYTES = 1024 * 1024;
/** Characters per request: small enough for a small local model's context with its answer. */
const PIECE_CHARS = 4000;

/** "de" → "German (de)"; an unknown code stays as it is. Pure. */
export function languageName(code: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

/**
 * Whole paragraphs (blank-line separated, separators kept) packed into pieces of at most `max` characters;
 * a longer paragraph is cut at line ends, then anywhere. Joined, the pieces are the text again. Pure.
 */
export function textPieces(text: string, max = PIECE_CHARS): string[] {
  const pieces: string[] = [];
  let current = '';
  const push = (part: string) => {
    if (current.length + part.length > max && current !== '') {
      pieces.push(current);
      current = '';
    }
    if (part.length <= max) {
      current += part;
      return;
    }
    for (const line of part.split(/(?<=\n)/)) {
      if (current.length + line.length > max && current !== '') {
        pieces.push(current);
        current = '';
      }
      for (let i = 0; i < line.length; i += max) {
        const cut = line.slice(i, i + max);
        if (current.length + cut.length > max && current !== '') {
          pieces.push(current);
          current = '';
        }
        current += cut;
      }
    }
  };
  for (const paragraph of text.split(/(?<=\n\s*\n)/)) push(paragraph);
  if (current !== '' || pieces.length === 0) pieces.push(current);
  return pieces;
}

const isText = (mime: string | null | undefined): boolean => Boolean(mime?.startsWith('text/')) || mime === 'application/x-subrip';

export const runTextTranslate: RobotRunner = async (job) => {
  const { input, params, signal } = job;
  if (!isText(input.mime)) return { ok: false, code: 'INVALID_INPUT_ERROR', message: `/text/translate takes text files (text/*), as the hosted robot does; "${input.name}" is ${input.mime ?? 'of unknown type'}: convert it first (/document/convert)`, unsuitableInput: true };
  if (input.size > MAX_TEXT_BYTES) return { ok: false, code: 'INVALID_INPUT_ERROR', message: `/text/translate takes text files up to 1 MiB here; "${input.name}" has ${input.size} bytes`, unsuitableInput: true };
  const config = configured(job);
  if ('ok' in config) return config;
  const target = typeof params.target_language === 'string' ? params.target_language : 'en';
  const source = typeof params.source_language === 'string' ? params.source_language : null;
  const system = `You translate text${source ? ` from ${languageName(source)}` : ''} into ${languageName(target)}. Answer with the translation only: no notes, no quotes around it. Keep the formatting exactly (line breaks, Markdown, subtitle numbers and timings, code); translate only the words people read.`;
  const text = await readFile(input.localPath, 'utf8');
  const out: string[] = [];
  try {
    for (const piece of textPieces(text)) {
      // Blank pieces (whitespace between paragraphs) are kept as they are, not sent.
      if (piece.trim() === '') {
        out.push(piece);
        continue;
      }
      const reply = await completeChat(config, { model: config.model, messages: [{ role: 'system', content: system }, { role: 'user', content: piece }] }, signal);
      if (typeof reply.content !== 'string' || reply.content.trim() === '') return { ok: false, code: 'TEXT_TRANSLATE_ERROR', message: `The model server gave no translation for a part of "${input.name}".` };
      // The answer without the whitespace a model adds or drops at its ends; the piece's own ends kept.
      const lead = /^\s*/.exec(piece)![0];
      const trail = /\s*$/.exec(piece)![0];
      out.push(`${lead}${reply.content.trim()}${trail}`);
    }
  } catch (e) {
    if (e instanceof ChatError || signal.aborted) return failed(job, e);
    throw e;
  }
  const ext = input.ext ? `.${input.ext}` : '';
  return { ok: true, files: [await resultFile(job, out.join(''), ext, { target_language: target, ...(source ? { source_language: source } : {}), model: config.model })] };
};
