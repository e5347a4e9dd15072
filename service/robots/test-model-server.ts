// Test helper: an OpenAI-compatible model server on loopback whose answers the test writes, a chat-only one
// beside it (it serves nothing, so a robot needing another capability says so), and a runner for steps that
// talk to them (used by *.test.ts only).

import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ChatConfig } from './chat-endpoint';
import { executeSteps, type ExecuteContext } from './execute-steps';
import type { StoredFile } from './file-record';

export const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });

const listen = (s: Server) => new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));

export interface ModelServers {
  port: number;
  /** A server that answers 404 to everything (a chat-only deployment without the capability asked). */
  chatOnlyPort: number;
  /** The /ai/chat settings for a server on `port`; null: no model server configured. */
  config(port: number | null): ChatConfig;
  /** Runs steps as the service does, with the model server on `chatPort` (the answering one by default). */
  run(steps: ExecuteContext['steps'], uploads: StoredFile[], chatPort?: number | null): Promise<{ outcome: Awaited<ReturnType<typeof executeSteps>>; results: StoredFile[] }>;
  close(): void;
}

export async function startModelServers(handler: RequestListener, options: { workDir: string; assemblyId: string; apiKey: string | null }): Promise<ModelServers> {
  const server = createServer(handler);
  const chatOnly = createServer((req, res) => void readBody(req).then(() => res.writeHead(404).end('Not Found')));
  const [port, chatOnlyPort] = await Promise.all([listen(server), listen(chatOnly)]);
  const config = (p: number | null): ChatConfig => ({ endpoint: p === null ? null : `http://127.0.0.1:${p}/v1`, model: 'local-model', apiKey: options.apiKey, timeoutMs: 20_000 });
  let n = 0;
  return {
    port,
    chatOnlyPort,
    config,
    async run(steps, uploads, chatPort = port) {
      const results: StoredFile[] = [];
      const outcome = await executeSteps({
        assemblyId: options.assemblyId, steps, uploads, fields: {}, signal: new AbortController().signal, workDir: join(options.workDir, `w${n++}`),
        onResult: (_s, f) => results.push(f),
        chat: { config: config(chatPort), ownDomains: [], toolServerHosts: [], mintToken: () => null },
      });
      return { outcome, results };
    },
    close() {
      server.close();
      chatOnly.close();
    },
  };
}
