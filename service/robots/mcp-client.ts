// The smallest MCP client a chat step needs: Streamable HTTP (JSON-RPC over POST; the answer is JSON or
// an SSE stream), `initialize`, `tools/list` and `tools/call`. Every request is bounded by a timeout and
// the step's abort signal, so a silent tool server fails the step instead of hanging it.

export class ToolServerError extends Error {}

export interface McpTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

const PROTOCOL_VERSION = '2025-06-18';

/** The JSON-RPC message with `id` in an SSE body (`data:` lines, events separated by a blank line). */
function fromSse(text: string, id: number): unknown {
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') continue;
    try {
      const msg = JSON.parse(data) as { id?: unknown };
      if (msg.id === id) return msg;
    } catch {
      // Not JSON: not a JSON-RPC message; keep looking.
    }
  }
  return undefined;
}

export class McpClient {
  private nextId = 1;
  private sessionId: string | null = null;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly timeoutMs: number,
    private readonly signal: AbortSignal,
  ) {}

  private async post(body: Record<string, unknown>): Promise<Response> {
    const headers: Record<string, string> = {
      ...this.headers,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': PROTOCOL_VERSION,
      ...(this.sessionId ? { 'Mcp-Session-Id': this.sessionId } : {}),
    };
    try {
      return await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body), redirect: 'error', signal: AbortSignal.any([this.signal, AbortSignal.timeout(this.timeoutMs)]) });
    } catch (e) {
      if (this.signal.aborted) throw e;
      const why = (e as Error).name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : ((e as { cause?: Error }).cause?.message ?? (e as Error).message);
      throw new ToolServerError(`The tool server ${this.url} could not be reached: ${why}.`);
    }
  }

  private async call(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const res = await this.post({ jsonrpc: '2.0', id, method, params });
    const sid = res.headers.get('mcp-session-id');
    if (sid) this.sessionId = sid;
    const text = await res.text();
    if (!res.ok) throw new ToolServerError(`The tool server ${this.url} answered ${method} with HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}.`);
    let msg: unknown;
    try {
      msg = (res.headers.get('content-type') ?? '').includes('text/event-stream') ? fromSse(text, id) : JSON.parse(text);
    } catch {
      msg = undefined;
    }
    const m = msg as { result?: Record<string, unknown>; error?: { message?: string } } | undefined;
    if (!m || typeof m !== 'object') throw new ToolServerError(`The tool server ${this.url} gave no JSON-RPC answer to ${method}.`);
    if (m.error) throw new ToolServerError(`The tool server ${this.url} refused ${method}: ${m.error.message ?? JSON.stringify(m.error)}.`);
    return m.result ?? {};
  }

  async initialize(): Promise<void> {
    await this.call('initialize', { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'assemblyline-local-service', version: '1' } });
    // A notification: the answer (202) carries nothing.
    const res = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await res.body?.cancel();
  }

  async listTools(): Promise<McpTool[]> {
    const result = await this.call('tools/list', {});
    return Array.isArray(result.tools) ? (result.tools as McpTool[]).filter((t) => typeof t?.name === 'string') : [];
  }

  /** The tool's text content (joined), or its JSON when it gave no text. */
  async callTool(name: string, args: unknown): Promise<string> {
    const result = await this.call('tools/call', { name, arguments: args ?? {} });
    const content = Array.isArray(result.content) ? (result.content as { type?: string; text?: string }[]) : [];
    const text = content.filter((c) => c.type === 'text' && typeof c.text === 'string').map((c) => c.text).join('\n');
    return text !== '' ? text : JSON.stringify(result.structuredContent ?? result);
  }
}
