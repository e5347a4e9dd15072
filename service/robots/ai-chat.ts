// /ai/chat (service-facts §8 "Full list"; parameters as the real robot names them: messages,
// system_message, format json|text, schema, model, return_messages, mcp_servers). Each input file goes to
// the operator's OpenAI-compatible chat-completions endpoint with the prompt: text files as text, images
// as data URLs. Tool servers (`mcp_servers`) are called by this service itself: their tools are offered
// to the model as functions, and each tool call the model makes is carried out over MCP and answered,
// up to MAX_TOOL_ROUNDS. The answer is the step's result file: `<name>.json` or `<name>.txt`.

import { readFile, writeFile } from 'node:fs/promises';
import type { McpServer } from '../../shared/api/mcp-servers';
import { ChatCode, ChatError, completeChat, type ChatConfig, type ChatMessage } from './chat-endpoint';
import { describeResult, type StoredFile } from './file-record';
import { McpClient, ToolServerError, type McpTool } from './mcp-client';
import { outputDir, outputFile } from './output-path';
import type { RobotFileOutcome, RobotRunner } from './robot-types';
import { toolServerHeaders } from './tool-server-auth';
import { refusedToolServer } from './tool-server-hosts';

/** Rounds of tool calls before the step gives up (a model that keeps calling tools would never end). */
export const MAX_TOOL_ROUNDS = 8;
/** Text inputs are read whole into the conversation up to this size. */
export const CHAT_TEXT_MAX_BYTES = 1024 * 1024;
/** Images go inline as data URLs up to this size. */
export const CHAT_IMAGE_MAX_BYTES = 20 * 1024 * 1024;

const TEXT_MIMES = /^(text\/|application\/(json|xml|x-yaml|yaml|javascript)$)/;
const IMAGE_MIMES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** The user content for one input file, or why it cannot be sent. */
async function inputContent(input: StoredFile): Promise<{ kind: 'text'; text: string } | { kind: 'image'; url: string } | { problem: string }> {
  const mime = input.mime ?? '';
  if (TEXT_MIMES.test(mime)) {
    if (input.size > CHAT_TEXT_MAX_BYTES) return { problem: `/ai/chat reads text files up to 1 MB; "${input.name}" has ${input.size} bytes` };
    return { kind: 'text', text: await readFile(input.localPath, 'utf8') };
  }
  if (IMAGE_MIMES.includes(mime)) {
    if (input.size > CHAT_IMAGE_MAX_BYTES) return { problem: `/ai/chat sends images up to 20 MB; "${input.name}" has ${input.size} bytes` };
    return { kind: 'image', url: `data:${mime};base64,${(await readFile(input.localPath)).toString('base64')}` };
  }
  return { problem: `/ai/chat takes text files and PNG, JPEG, WebP or GIF images; "${input.name}" is ${mime || 'of unknown type'}` };
}

/** The conversation: system_message, then `messages` (a prompt or a history), the file added to the last user turn. */
export function buildMessages(params: Record<string, unknown>, file: { kind: 'text'; text: string; name: string } | { kind: 'image'; url: string; name: string }): ChatMessage[] {
  const history: ChatMessage[] =
    typeof params.messages === 'string' ? [{ role: 'user', content: params.messages }] : ((params.messages as ChatMessage[] | undefined) ?? []).map((m) => ({ ...m }));
  const out: ChatMessage[] = typeof params.system_message === 'string' && params.system_message !== '' ? [{ role: 'system', content: params.system_message }] : [];
  out.push(...history);
  let last = out.map((m) => m.role).lastIndexOf('user');
  if (last < 0) {
    out.push({ role: 'user', content: '' });
    last = out.length - 1;
  }
  const prompt = typeof out[last]!.content === 'string' ? (out[last]!.content as string) : '';
  out[last] =
    file.kind === 'text'
      ? { role: 'user', content: `${prompt}\n\nFile "${file.name}":\n${file.text}`.trimStart() }
      : { role: 'user', content: [...(prompt ? [{ type: 'text', text: prompt }] : []), { type: 'image_url', image_url: { url: file.url } }] };
  return out;
}

/** OpenAI `response_format` for the step's `format` and `schema`. */
function responseFormat(params: Record<string, unknown>): Record<string, unknown> | undefined {
  if (params.format === 'text') return undefined;
  if (typeof params.schema === 'string' && params.schema.trim() !== '') {
    return { type: 'json_schema', json_schema: { name: 'result', schema: JSON.parse(params.schema) as unknown, strict: true } };
  }
  return { type: 'json_object' };
}

interface BoundTool {
  client: McpClient;
  name: string;
}

/** Connects to each tool server and names its tools for the model (`t<server>_<tool>`, OpenAI's name rules). */
async function connectTools(servers: McpServer[], headersFor: (s: McpServer) => Record<string, string>, timeoutMs: number, signal: AbortSignal): Promise<{ tools: Record<string, unknown>[]; bound: Map<string, BoundTool> }> {
  const tools: Record<string, unknown>[] = [];
  const bound = new Map<string, BoundTool>();
  for (const [i, server] of servers.entries()) {
    const client = new McpClient(server.url, headersFor(server), timeoutMs, signal);
    await client.initialize();
    for (const tool of await client.listTools()) {
      const fn = `t${i}_${tool.name.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
      bound.set(fn, { client, name: tool.name });
      tools.push({ type: 'function', function: { name: fn, description: (tool as McpTool).description ?? tool.name, parameters: tool.inputSchema ?? { type: 'object', properties: {} } } });
    }
  }
  return { tools, bound };
}

export const runAiChat: RobotRunner = async ({ robot, params, input, outDir, signal, chat }): Promise<RobotFileOutcome> => {
  const config: ChatConfig | undefined = chat?.config;
  if (!chat || !config?.endpoint) {
    return {
      ok: false,
      code: ChatCode.notConfigured,
      message: `${robot} needs a chat endpoint: start the local service with --chat-endpoint <url of an OpenAI-compatible API> (or ASSEMBLYLINE_CHAT_ENDPOINT; in the app: Workspaces, Chat model of the local service).`,
    };
  }
  // Before any request, to the model or to a tool server: the operator decides where the service may call.
  const refused = refusedToolServer((params.mcp_servers as McpServer[] | undefined) ?? [], chat.toolServerHosts);
  if (refused !== null) return { ok: false, code: ChatCode.toolServerHostNotAllowed, message: `Step ${robot}: ${refused}` };
  const content = await inputContent(input);
  if ('problem' in content) return { ok: false, code: 'INVALID_INPUT_ERROR', message: `${content.problem}.`, unsuitableInput: true };
  try {
    const servers = (params.mcp_servers as McpServer[] | undefined) ?? [];
    let minted: string | null = null;
    // One token per job, minted only when a server gets it.
    const headersFor = (s: McpServer) => toolServerHeaders(s, chat.ownDomains, () => (minted ??= chat.mintToken())).headers;
    const { tools, bound } = await connectTools(servers, headersFor, config.timeoutMs, signal);
    const messages = buildMessages(params, { ...content, name: input.name });
    const model = typeof params.model === 'string' && params.model !== '' && params.model !== 'auto' ? params.model : config.model;
    const format = responseFormat(params);
    for (let round = 0; ; round += 1) {
      const reply = await completeChat({ ...config, endpoint: config.endpoint }, { model, messages, ...(tools.length > 0 ? { tools } : {}), ...(format ? { response_format: format } : {}) }, signal);
      messages.push({ role: 'assistant', content: reply.content ?? null, ...(reply.tool_calls?.length ? { tool_calls: reply.tool_calls } : {}) });
      if (!reply.tool_calls?.length) break;
      if (round + 1 >= MAX_TOOL_ROUNDS) throw new ChatError(ChatCode.toolRoundsExceeded, `The model was still calling tools after ${MAX_TOOL_ROUNDS} rounds.`);
      for (const call of reply.tool_calls) {
        const tool = bound.get(call.function?.name);
        let answer: string;
        if (!tool) answer = `Unknown tool ${call.function?.name}.`;
        else {
          let args: unknown = {};
          try {
            args = call.function.arguments ? JSON.parse(call.function.arguments) : {};
          } catch {
            args = {};
          }
          answer = await tool.client.callTool(tool.name, args);
        }
        messages.push({ role: 'tool', tool_call_id: call.id, content: answer });
      }
    }
    return { ok: true, files: [await writeAnswer(params, messages, input, outDir, model)] };
  } catch (e) {
    if (signal.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
    if (e instanceof ChatError) return { ok: false, code: e.code, message: `Step ${robot}: ${e.message}` };
    if (e instanceof ToolServerError) return { ok: false, code: ChatCode.toolServerError, message: e.message };
    throw e;
  }
};

/** The answer file: the last reply (JSON parsed for `format: "json"`), or every message with `return_messages: "all"`. */
async function writeAnswer(params: Record<string, unknown>, messages: ChatMessage[], input: StoredFile, outDir: string, model: string): Promise<StoredFile> {
  const dir = await outputDir(outDir, input.id);
  const answer = messages[messages.length - 1]!.content;
  const text = typeof answer === 'string' ? answer : JSON.stringify(answer ?? '');
  if (params.return_messages === 'all') return saved(dir, input, '.json', JSON.stringify(messages, null, 2), model);
  if (params.format === 'text') return saved(dir, input, '.txt', text, model);
  let json: unknown;
  try {
    // Some models wrap JSON in a ```json fence even when asked not to.
    json = JSON.parse(text.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
  } catch {
    throw new ChatError(ChatCode.invalidJson, `format "json" was asked for, but the model answered with text that is not JSON: ${JSON.stringify(text.slice(0, 200))}. Use format "text" for a plain answer.`);
  }
  return saved(dir, input, '.json', JSON.stringify(json, null, 2), model);
}

async function saved(dir: string, input: StoredFile, ext: '.json' | '.txt', body: string, model: string): Promise<StoredFile> {
  const target = outputFile(dir, input.basename, ext);
  await writeFile(target, body);
  return describeResult(input, target, `${input.basename}${ext}`, { model });
}
