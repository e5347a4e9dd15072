/**
 * What a connection test says about the other side, in the app's own words only. Tests reach addresses
 * the page chooses, so an answer that repeated what a server sent (an error body, a banner, a TLS
 * certificate's names) would let a script in the page read internal hosts through core: reachable or not,
 * why (refused, no such host, timeout, TLS, not the protocol expected) and the class of an HTTP status —
 * never the remote's text (docs/security.md "Connection tests are no probe"). Pure.
 */

const TLS_CERT = /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|ERR_TLS_CERT_ALTNAME_INVALID$|HOSTNAME_MISMATCH$)/;
const TLS_HANDSHAKE = /^(ERR_SSL_|ERR_TLS_|EPROTO$)/;

/** A network error in words a user can act on (refused, unknown host, timeout, TLS…), with its code. */
export function describeNetworkError(error: unknown, where: string, timeoutMs: number): { message: string; code: string } {
  const e = error as { code?: unknown; name?: string; message?: string; cause?: { code?: unknown; name?: string } } | null;
  // The first code along the cause chain (fetch wraps the socket's error, which may wrap another); a parse
  // error of the answer without one (undici leaves its code out on some paths) is still "not HTTP".
  const chain: { code?: unknown; name?: string; cause?: unknown }[] = [];
  for (let c: unknown = e; c && typeof c === 'object' && chain.length < 4; c = (c as { cause?: unknown }).cause) chain.push(c as { code?: unknown; name?: string });
  const coded = chain.find((c) => typeof c.code === 'string')?.code as string | undefined;
  const own = coded ?? (chain.some((c) => c.name === 'HTTPParserError') ? 'HPE_INVALID_RESPONSE' : undefined);
  const timedOut = e?.name === 'TimeoutError' || e?.cause?.name === 'TimeoutError' || (own === undefined && /timed? ?out/i.test(e?.message ?? ''));
  const code = own ?? (timedOut ? 'ETIMEDOUT' : 'NETWORK_ERROR');
  const reason: Record<string, string> = {
    ECONNREFUSED: `nothing accepts connections on ${where} (connection refused): check the host and port`,
    ENOTFOUND: `the host name in ${where} does not resolve: check it for typos`,
    EAI_AGAIN: `the host name in ${where} could not be looked up (no DNS answer): check your network`,
    ETIMEDOUT: `${where} did not answer within ${Math.round(timeoutMs / 1000)} s: a firewall, or the wrong host or port`,
    UND_ERR_CONNECT_TIMEOUT: `${where} did not accept the connection in time: a firewall, or the wrong host or port`,
    UND_ERR_HEADERS_TIMEOUT: `${where} accepted the connection but sent no answer in time`,
    EHOSTUNREACH: `${where} is unreachable from this computer (no route)`,
    ENETUNREACH: `the network of ${where} is unreachable from this computer`,
    ECONNRESET: `${where} closed the connection at once`,
    UND_ERR_SOCKET: `${where} closed the connection before answering`,
  };
  const words =
    reason[code] ??
    (TLS_CERT.test(code)
      ? `${where} answered over TLS with a certificate this computer does not trust for that name (${code})`
      : TLS_HANDSHAKE.test(code)
        ? `no TLS connection could be made with ${where} (${code}): is it https on that port?`
        : code.startsWith('HPE_')
          ? `${where} answered, but not in HTTP: check the port`
          : `cannot connect to ${where} (${code})`);
  return { message: `${words}.`, code };
}

/** "a client error (HTTP 404)": the status and its class, never the body. */
export function describeHttpStatus(status: number): string {
  const kind = status >= 500 ? 'a server error' : status >= 400 ? 'a client error' : status >= 300 ? 'a redirect' : status >= 200 ? 'success' : 'an unusual status';
  return `${kind} (HTTP ${status})`;
}
