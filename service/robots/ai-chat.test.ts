// /ai/chat over real HTTP: the local service talks to a real loopback OpenAI-compatible server and a
// real loopback MCP tool server (both tiny node:http servers here, 127.0.0.1, ephemeral ports) that record
// what they receive. Covers the `auth: "service"` token (injected for the service's own host only, an
// existing Authorization left alone, its scopes working against the service, its expiry), the result
// file, and every error code.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForm, inOneHourIso, png, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';

type Body = Record<string, unknown>;

const readBody = async (req: IncomingMessage): Promise<string> => {
  let s = '';
  for await (const chunk of req) s += String(chunk);
  return s;
};

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
};

/** Every request a tool server got: its path, Authorization header and JSON-RPC method. */
const toolRequests: { path: string; host: string; authorization: string | undefined; method: string; at: number }[] = [];
const toolServer = createServer((req, res) => {
  void readBody(req).then((raw) => {
    const msg = JSON.parse(raw) as { id?: number; method: string; params?: { name?: string; arguments?: { city?: string } } };
    toolRequests.push({ path: req.url ?? '', host: req.headers.host ?? '', authorization: req.headers.authorization, method: msg.method, at: Date.now() });
    if (msg.id === undefined) return void res.writeHead(202).end();
    const reply = (result: unknown, sse = false): void => {
      const json = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result });
      // Streamable HTTP servers may answer as SSE: the client must read both.
      if (sse) res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end(`event: message\ndata: ${json}\n\n`);
      else res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'sess-1' }).end(json);
    };
    if (msg.method === 'initialize') return reply({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'rec', version: '1' } });
    if (msg.method === 'tools/list') return reply({ tools: [{ name: 'weather', description: 'Weather of a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }, true);
    if (msg.method === 'tools/call') return reply({ content: [{ type: 'text', text: `sunny in ${msg.params?.arguments?.city ?? '?'}` }] });
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no such method' } }));
  });
});

/** Every chat-completions request the model server got. Its answer depends on `model` (see below). */
const chatRequests: Body[] = [];
const chatServer = createServer((req, res) => {
  void readBody(req).then((raw) => {
    const body = JSON.parse(raw) as { model: string; messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
    chatRequests.push({ ...body, path: req.url, authorization: req.headers.authorization });
    const answer = (message: Body): void => void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', ...message } }] }));
    if (body.model === 'hang') return; // never answers
    if (body.model === 'broken') return void res.writeHead(500).end('model crashed');
    if (body.model === 'prose') return answer({ content: 'Here is some prose, not JSON.' });
    if (body.model === 'loop') return answer({ content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: body.tools![0]!.function.name, arguments: '{}' } }] });
    const toolDone = body.messages.find((m) => m.role === 'tool');
    // With tools and no tool answer yet: call each tool once; then answer with what they said.
    if (body.tools?.length && !toolDone) {
      return answer({ content: null, tool_calls: body.tools.map((t, i) => ({ id: `call-${i}`, type: 'function', function: { name: t.function.name, arguments: '{"city":"Oslo"}' } })) });
    }
    const toolAnswers = body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    answer({ content: JSON.stringify({ tools: toolAnswers }) });
  });
});

let fx: Fixture;
let toolPort = 0;
let chatPort = 0;
// Long enough for the Assembly to end and the token to be tried on a loaded machine; the test then waits out the rest.
const TOKEN_LIFE_S = 12;

beforeAll(async () => {
  [toolPort, chatPort] = await Promise.all([listen(toolServer), listen(chatServer)]);
  fx = await startFixture({ chat: { endpoint: `http://127.0.0.1:${chatPort}/v1`, model: 'local-model', apiKey: 'sk-local', timeoutMs: 1500, tokenLifetimeS: TOKEN_LIFE_S } });
});
afterAll(async () => {
  await fx.stop();
  toolServer.closeAllConnections();
  chatServer.closeAllConnections();
  await Promise.all([new Promise((r) => toolServer.close(r)), new Promise((r) => chatServer.close(r))]);
});

/** Runs one /ai/chat step on a text upload; the end status (or the refusal of the POST). */
const NOTE = [{ field: 'file', name: 'note.txt', data: new TextEncoder().encode('The meeting is on Friday.'), type: 'text/plain' }];

async function chat(step: Body, service = fx, files: { field: string; name: string; data: Uint8Array; type: string }[] = NOTE): Promise<Body> {
  const params = { auth: { key: service.service.authKey, expires: inOneHourIso() }, steps: { asked: { robot: '/ai/chat', use: ':original', ...step } } };
  const { body } = await postAssembly(service.service.url, buildForm({ params, secret: service.service.authSecret, files }));
  return body.error ? body : waitForEnd(String(body.assembly_ssl_url), 15_000);
}

const resultText = async (status: Body, step = 'asked'): Promise<{ name: string; text: string }> => {
  const file = ((status.results as Record<string, Body[]>)[step] ?? [])[0]!;
  return { name: String(file.name), text: await (await fetch(String(file.ssl_url))).text() };
};

/** GET /assemblies with only the Bearer token: proves the minted token's key and scopes. */
const listWith = async (token: string): Promise<{ status: number; body: Body }> => {
  const url = new URL('/assemblies', fx.service.url);
  url.searchParams.set('params', JSON.stringify({}));
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Body };
};

describe('/ai/chat with tool servers', () => {
  it('injects a minted token for the service own host only, leaves an existing Authorization alone, and the token works until it expires', async () => {
    toolRequests.length = 0;
    chatRequests.length = 0;
    const own = `http://127.0.0.1:${toolPort}`;
    // localhost reaches the same loopback server, but it is not the service's host (127.0.0.1): a foreign host.
    const foreign = `http://localhost:${toolPort}`;
    const status = await chat({
      messages: 'When is the meeting?',
      system_message: 'Answer briefly.',
      mcp_servers: [
        { type: 'http', url: `${own}/own`, auth: 'service' },
        { type: 'http', url: `${foreign}/foreign`, auth: 'service' },
        { type: 'http', url: `${own}/mine`, auth: 'service', headers: { Authorization: 'Bearer my-own', 'X-Trace': 't1' } },
        { type: 'http', url: `${own}/plain` },
      ],
    });
    expect(status.ok).toBe('ASSEMBLY_COMPLETED');

    const byPath = (p: string) => toolRequests.filter((r) => r.path === p);
    // Each server was initialized, listed and called once.
    for (const p of ['/own', '/foreign', '/mine', '/plain']) expect(byPath(p).map((r) => r.method)).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
    const injected = byPath('/own').map((r) => r.authorization);
    expect(injected[0]).toMatch(/^Bearer [A-Za-z0-9_-]{20,}$/);
    expect(new Set(injected).size).toBe(1);
    expect(byPath('/foreign').every((r) => r.authorization === undefined)).toBe(true);
    expect(byPath('/mine').every((r) => r.authorization === 'Bearer my-own')).toBe(true);
    expect(byPath('/plain').every((r) => r.authorization === undefined)).toBe(true);

    // The model got the prompt, the file, the system message, the tools as functions, and our model name and key.
    const first = chatRequests[0]!;
    expect(first.model).toBe('local-model');
    expect(first.authorization).toBe('Bearer sk-local');
    expect(first.path).toBe('/v1/chat/completions');
    expect(first.response_format).toEqual({ type: 'json_object' });
    const msgs = first.messages as { role: string; content: string }[];
    expect(msgs[0]).toEqual({ role: 'system', content: 'Answer briefly.' });
    expect(msgs[1]!.content).toContain('When is the meeting?');
    expect(msgs[1]!.content).toContain('The meeting is on Friday.');
    expect((first.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual(['t0_weather', 't1_weather', 't2_weather', 't3_weather']);

    // The answer is the step's JSON result file, with what the tools said.
    const result = await resultText(status);
    expect(result.name).toBe('note.json');
    expect(JSON.parse(result.text)).toEqual({ tools: ['sunny in Oslo', 'sunny in Oslo', 'sunny in Oslo', 'sunny in Oslo'] });

    // The token is the Assembly key's: it lists this Assembly.
    const token = injected[0]!.slice('Bearer '.length);
    const listed = await listWith(token);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(String(status.assembly_id));
    // Short-lived: after its life it is refused.
    // Minted before the tool server first saw it: its life is over by then + TOKEN_LIFE_S.
    const seen = byPath('/own')[0]!.at;
    await new Promise((r) => setTimeout(r, Math.max(0, seen + TOKEN_LIFE_S * 1000 + 300 - Date.now())));
    const late = await listWith(token);
    expect(late.status).toBe(401);
    expect(late.body.error).toBe('BEARER_TOKEN_EXPIRED');
  });

  it('writes a text answer for format "text"', async () => {
    const status = await chat({ messages: 'Say something', format: 'text', model: 'prose' });
    expect(status.ok).toBe('ASSEMBLY_COMPLETED');
    expect(await resultText(status)).toEqual({ name: 'note.txt', text: 'Here is some prose, not JSON.' });
  });
});

describe('/ai/chat inputs', () => {
  it('sends an image as a data URL, skips a PDF as unsuitable, and returns the whole conversation with return_messages "all"', async () => {
    chatRequests.length = 0;
    const image = await png(8, 8);
    const pdf = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');
    const status = await chat({ messages: 'What is in the picture?', format: 'text', model: 'prose', return_messages: 'all' }, fx, [
      { field: 'file', name: 'dot.png', data: image, type: 'image/png' },
      { field: 'file', name: 'doc.pdf', data: pdf, type: 'application/pdf' },
    ]);
    expect(status.ok).toBe('ASSEMBLY_COMPLETED');
    expect(chatRequests).toHaveLength(1);
    const user = (chatRequests[0]!.messages as { role: string; content: { type: string; text?: string; image_url?: { url: string } }[] }[])[0]!;
    expect(user.content[0]).toEqual({ type: 'text', text: 'What is in the picture?' });
    expect(user.content[1]!.image_url!.url).toBe(`data:image/png;base64,${Buffer.from(image).toString('base64')}`);
    const result = await resultText(status);
    expect(result.name).toBe('dot.json');
    expect((JSON.parse(result.text) as { role: string }[]).map((m) => m.role)).toEqual(['user', 'assistant']);
    // The PDF is said to be unsuitable at its file, not silently dropped.
    expect(status.warnings).toEqual([expect.objectContaining({ step: 'asked', name: 'doc.pdf', code: 'INVALID_INPUT_ERROR', reason: expect.stringContaining('takes text files and PNG, JPEG, WebP or GIF images') })]);
  });
});

describe('/ai/chat errors, each with its code', () => {
  it.each([
    ['AI_CHAT_INVALID_JSON', { messages: 'x', model: 'prose' }, /not JSON/],
    ['AI_CHAT_ENDPOINT_ERROR', { messages: 'x', model: 'broken' }, /HTTP 500/],
    ['AI_CHAT_TIMEOUT', { messages: 'x', model: 'hang' }, /within 1500 ms/],
    ['AI_CHAT_TOOL_ROUNDS_EXCEEDED', { messages: 'x', model: 'loop', mcp_servers: [{ type: 'http', url: 'http://127.0.0.1:TOOL/x' }] }, /8 rounds/],
    ['AI_CHAT_TOOL_SERVER_ERROR', { messages: 'x', mcp_servers: [{ type: 'http', url: 'http://127.0.0.1:1/mcp' }] }, /could not be reached/],
  ])('%s', async (code, step, message) => {
    const s = JSON.parse(JSON.stringify(step).replace('TOOL', String(toolPort))) as Body;
    const started = Date.now();
    const status = await chat(s);
    expect(status.error).toBe(code);
    expect(String(status.message)).toMatch(message);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('AI_CHAT_NOT_CONFIGURED without an endpoint, AI_CHAT_UNREACHABLE when nothing listens there', async () => {
    const bare = await startFixture();
    const closed = await startFixture({ chat: { endpoint: 'http://127.0.0.1:1/v1', timeoutMs: 1500 } });
    try {
      const a = await chat({ messages: 'x' }, bare);
      expect(a.error).toBe('AI_CHAT_NOT_CONFIGURED');
      expect(String(a.message)).toContain('--chat-endpoint');
      const b = await chat({ messages: 'x' }, closed);
      expect(b.error).toBe('AI_CHAT_UNREACHABLE');
    } finally {
      await Promise.all([bare.stop(), closed.stop()]);
    }
  });

  it.each([
    ['MCP_SERVERS_NOT_A_LIST', { type: 'http', url: 'https://a.example/mcp' }, 'mcp_servers must be a list'],
    ['MCP_SERVER_NOT_AN_OBJECT', ['https://a.example/mcp'], 'mcp_servers[0] must be an object'],
    ['MCP_SERVER_INVALID_TYPE', [{ type: 'sse', url: 'https://a.example/mcp' }], 'mcp_servers[0].type must be "http"'],
    ['MCP_SERVER_MISSING_URL', [{ type: 'http' }], 'mcp_servers[0] needs a "url"'],
    ['MCP_SERVER_INVALID_URL', [{ type: 'http', url: 'ftp://a.example/mcp' }], 'mcp_servers[0].url must be an http(s) URL'],
    ['MCP_SERVER_INVALID_AUTH', [{ type: 'http', url: 'https://a.example/mcp', auth: 'transloadit' }], 'mcp_servers[0].auth may only be "service"'],
    ['MCP_SERVER_INVALID_HEADERS', [{ type: 'http', url: 'https://a.example/mcp', headers: { 'X-N': 1 } }], 'mcp_servers[0].headers["X-N"] must be a string'],
  ])('refuses %s before anything runs, naming the step and the parameter', async (code, servers, message) => {
    const status = await chat({ messages: 'x', mcp_servers: servers });
    expect(status.error).toBe(code);
    expect(String(status.message)).toContain('Step "asked" (/ai/chat)');
    expect(String(status.message)).toContain(message);
  });

  it('AI_CHAT_VALIDATION for missing messages and an inline schema', async () => {
    const a = await chat({});
    expect(a.error).toBe('AI_CHAT_VALIDATION');
    expect(String(a.message)).toContain('messages is required');
    const b = await chat({ messages: 'x', schema: { type: 'object' } });
    expect(b.error).toBe('AI_CHAT_VALIDATION');
    expect(String(b.message)).toContain('schema must be a string');
  });
});

describe('/ai/chat tool-server hosts (--tool-server-allow-hosts)', () => {
  /** A real listener on 127.0.0.1 that records every TCP connection and request: a refused host must see none. */
  const trapConnections: string[] = [];
  const trap = createServer((req, res) => {
    trapConnections.push(`request ${req.url}`);
    res.writeHead(500).end();
  });
  trap.on('connection', (socket) => trapConnections.push(`connection from ${socket.remotePort}`));
  let trapPort = 0;
  beforeAll(async () => {
    trapPort = await listen(trap);
  });
  afterAll(async () => {
    trap.closeAllConnections();
    await new Promise((r) => trap.close(r));
  });

  it('calls a tool server on an allowed host, and refuses one on another host before any request, naming the host and the flag', async () => {
    // Only "localhost" is allowed: 127.0.0.1 (the trap's, and the service's own host) is not.
    const only = await startFixture({ chat: { endpoint: `http://127.0.0.1:${chatPort}/v1`, timeoutMs: 1500, toolServerHosts: ['localhost'] } });
    try {
      toolRequests.length = 0;
      const allowed = await chat({ messages: 'x', mcp_servers: [{ type: 'http', url: `http://localhost:${toolPort}/allowed` }] }, only);
      expect(allowed.ok).toBe('ASSEMBLY_COMPLETED');
      expect(toolRequests.filter((r) => r.path === '/allowed').map((r) => r.method)).toContain('tools/call');

      toolRequests.length = 0;
      chatRequests.length = 0;
      trapConnections.length = 0;
      // The allowed entry comes first: still nothing is sent to it, nor to the model.
      const refused = await chat({ messages: 'x', mcp_servers: [{ type: 'http', url: `http://localhost:${toolPort}/first` }, { type: 'http', url: `http://127.0.0.1:${trapPort}/mcp`, auth: 'service' }] }, only);
      expect(refused.error).toBe('MCP_SERVER_HOST_NOT_ALLOWED');
      expect(String(refused.message)).toContain('mcp_servers[1] is on "127.0.0.1"');
      expect(String(refused.message)).toContain('only on localhost');
      expect(String(refused.message)).toContain('--tool-server-allow-hosts');
      expect(trapConnections).toEqual([]);
      expect(toolRequests).toEqual([]);
      expect(chatRequests).toEqual([]);
    } finally {
      await only.stop();
    }
  });

  it('by default calls loopback tool servers and refuses a host on the network', async () => {
    // The suite's fixture has no list: loopback (127.0.0.1, localhost) and the service's own host.
    toolRequests.length = 0;
    const local = await chat({ messages: 'x', mcp_servers: [{ type: 'http', url: `http://localhost:${toolPort}/local` }] });
    expect(local.ok).toBe('ASSEMBLY_COMPLETED');
    expect(toolRequests.some((r) => r.path === '/local')).toBe(true);
    // A LAN address (TEST-NET-1, nothing answers): refused at once, not after a connect timeout.
    const started = Date.now();
    const lan = await chat({ messages: 'x', mcp_servers: [{ type: 'http', url: 'http://192.0.2.10:8080/mcp' }] });
    expect(lan.error).toBe('MCP_SERVER_HOST_NOT_ALLOWED');
    expect(String(lan.message)).toContain('"192.0.2.10"');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('"*" lets the operator allow any host', async () => {
    const any = await startFixture({ chat: { endpoint: `http://127.0.0.1:${chatPort}/v1`, timeoutMs: 1500, toolServerHosts: ['*'] } });
    try {
      trapConnections.length = 0;
      // The trap answers 500: the step fails as a tool-server error, after the service did connect.
      const status = await chat({ messages: 'x', mcp_servers: [{ type: 'http', url: `http://127.0.0.1:${trapPort}/mcp` }] }, any);
      expect(status.error).toBe('AI_CHAT_TOOL_SERVER_ERROR');
      expect(trapConnections).toContain('request /mcp');
    } finally {
      await any.stop();
    }
  });
});
