// Tool servers of a chat step (media-processing-api.md "Tool-server auto-authentication for chat steps"):
// each entry of `mcp_servers` has `type` (`http`), `url` and optional `auth` and `headers`. Shared by the
// local service (which refuses such steps) and the Template editor (which marks the line). Pure.

import { isHttpUrl } from './http-url';

/** The step key holding the tool servers. */
export const MCP_SERVERS_PARAM = 'mcp_servers';

/** The service's own neutral marker: mint a short-lived Bearer token for this server. */
export const SERVICE_AUTH = 'service';

/** One code per rule, so a client can tell them apart. */
export const McpServerCode = {
  notAList: 'MCP_SERVERS_NOT_A_LIST',
  notAnObject: 'MCP_SERVER_NOT_AN_OBJECT',
  invalidType: 'MCP_SERVER_INVALID_TYPE',
  missingUrl: 'MCP_SERVER_MISSING_URL',
  invalidUrl: 'MCP_SERVER_INVALID_URL',
  invalidAuth: 'MCP_SERVER_INVALID_AUTH',
  invalidHeaders: 'MCP_SERVER_INVALID_HEADERS',
} as const;

export interface McpServer {
  type: 'http';
  url: string;
  auth?: typeof SERVICE_AUTH;
  headers?: Record<string, string>;
}

export interface McpServerProblem {
  code: string;
  /** Names the entry and key, e.g. `mcp_servers[1].url must be an http(s) URL (got "ftp://x")`. */
  problem: string;
  parameter: typeof MCP_SERVERS_PARAM;
  /** Where inside `mcp_servers`: `["1", "url"]`, `["1"]`, or `[]` for the whole value (an editor marks that line). */
  path: string[];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown): string => JSON.stringify(v) ?? String(v);


/**
 * The first problem of a step's `mcp_servers`, or null when absent or valid. `isDeferred` says whether a
 * value still holds `${…}` and is checked once interpolated (a `url` from a field, say).
 */
export function mcpServersProblem(step: Record<string, unknown>, isDeferred: (v: unknown) => boolean = () => false): McpServerProblem | null {
  const value = step[MCP_SERVERS_PARAM];
  if (value === undefined || isDeferred(value)) return null;
  const bad = (code: string, problem: string, path: string[] = []): McpServerProblem => ({ code, problem, parameter: MCP_SERVERS_PARAM, path });
  if (!Array.isArray(value)) return bad(McpServerCode.notAList, `mcp_servers must be a list of tool servers (got ${show(value)})`);
  for (const [i, entry] of value.entries()) {
    const at = `mcp_servers[${i}]`;
    if (!isPlainObject(entry)) return bad(McpServerCode.notAnObject, `${at} must be an object with "type" and "url" (got ${show(entry)})`, [String(i)]);
    if (entry.type !== 'http' && !isDeferred(entry.type)) return bad(McpServerCode.invalidType, `${at}.type must be "http" (got ${show(entry.type)})`, [String(i), ...(entry.type === undefined ? [] : ['type'])]);
    if (entry.url === undefined || entry.url === null || entry.url === '') return bad(McpServerCode.missingUrl, `${at} needs a "url", e.g. "https://example.com/mcp"`, [String(i)]);
    if (!isDeferred(entry.url) && !isHttpUrl(entry.url)) {
      return bad(McpServerCode.invalidUrl, `${at}.url must be an http(s) URL (got ${show(entry.url)})`, [String(i), 'url']);
    }
    if (entry.auth !== undefined && entry.auth !== SERVICE_AUTH && !isDeferred(entry.auth)) {
      return bad(McpServerCode.invalidAuth, `${at}.auth may only be "${SERVICE_AUTH}" (got ${show(entry.auth)})`, [String(i), 'auth']);
    }
    if (entry.headers !== undefined) {
      const h = entry.headers;
      const wrong = isPlainObject(h) ? Object.entries(h).find(([, v]) => typeof v !== 'string') : undefined;
      if (!isPlainObject(h)) return bad(McpServerCode.invalidHeaders, `${at}.headers must be an object of header names to strings (got ${show(h)})`, [String(i), 'headers']);
      if (wrong) return bad(McpServerCode.invalidHeaders, `${at}.headers["${wrong[0]}"] must be a string (got ${show(wrong[1])})`, [String(i), 'headers', wrong[0]]);
    }
  }
  return null;
}
