import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceivedWebhook, WebhookTester } from '../../../shared/ipc/webhook-models';
import { verifyWebhookSignature, type SigningCandidate } from './verify-signature';
import { readWebhookBody, summarizeStatus } from './webhook-body';

/** Larger bodies are refused (413): a status record with many files is well below this. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** What the page is sent of each payload. */
const MAX_PAYLOAD_CHARS = 256 * 1024;
const KEEP = 100;

export interface WebhookTesterDeps {
  /** The secrets to verify with (the workspaces' keys, the active one first). They never leave core. */
  candidates(): Promise<SigningCandidate[]>;
  onReceived(webhook: ReceivedWebhook): void;
  now?: () => Date;
}

export interface WebhookTesterService {
  /** Starts the receiver once (127.0.0.1, ephemeral port) and answers its state. */
  start(): Promise<WebhookTester>;
  state(): WebhookTester;
  clear(): WebhookTester;
  close(): Promise<void>;
}

/**
 * The in-app webhook tester: an HTTP receiver on a loopback URL that accepts notifications (any path,
 * POST), answers 200 at once, and records each one with its signature verified in core.
 */
export function createWebhookTester(deps: WebhookTesterDeps): WebhookTesterService {
  const now = deps.now ?? (() => new Date());
  let server: Server | null = null;
  let starting: Promise<string> | null = null;
  let url: string | null = null;
  let received: ReceivedWebhook[] = [];

  const state = (): WebhookTester => ({ url, received });

  async function receive(req: IncomingMessage, body: Buffer): Promise<void> {
    const contentType = req.headers['content-type'] ?? '';
    const fields = await readWebhookBody(contentType, body);
    const base = { id: randomUUID(), receivedAt: now().toISOString(), contentType };
    let webhook: ReceivedWebhook;
    if (!fields.ok) {
      webhook = { ...base, assemblyId: null, ok: null, error: null, payloadBytes: body.length, payload: null, problem: fields.problem, verification: { verified: false, algorithm: null, reason: 'missing', message: 'Nothing to verify: the body could not be read.', workspaceId: null } };
    } else {
      const summary = summarizeStatus(fields.transloadit);
      const candidates = await deps.candidates().catch(() => []);
      webhook = {
        ...base,
        assemblyId: summary.assemblyId,
        ok: summary.ok,
        error: summary.error,
        payloadBytes: Buffer.byteLength(fields.transloadit, 'utf8'),
        payload: fields.transloadit.slice(0, MAX_PAYLOAD_CHARS),
        problem: summary.problem,
        verification: verifyWebhookSignature(fields.transloadit, fields.signature, candidates),
      };
    }
    received = [webhook, ...received].slice(0, KEEP);
    deps.onReceived(webhook);
  }

  function listen(): Promise<string> {
    const s = createServer((req, res) => {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('The webhook tester takes POSTed notifications.\n');
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          res.writeHead(413, { connection: 'close' }).end();
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => {
        if (size > MAX_BODY_BYTES) return;
        // Record first, then answer: a test that waits for the 200 finds the webhook listed.
        void receive(req, Buffer.concat(chunks))
          .catch(() => undefined)
          .finally(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('received\n'));
      });
      req.on('error', () => undefined);
    });
    server = s;
    return new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        s.off('error', reject);
        resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}/webhook`);
      });
    });
  }

  return {
    async start() {
      starting ??= listen().then((u) => (url = u));
      try {
        await starting;
      } catch (cause) {
        starting = null;
        server = null;
        throw cause;
      }
      return state();
    },
    state,
    clear() {
      received = [];
      return state();
    },
    async close() {
      const s = server;
      server = null;
      url = null;
      starting = null;
      if (!s) return;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
