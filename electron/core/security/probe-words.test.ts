import { describe, expect, it } from 'vitest';
import { describeNetworkError } from './probe-words';

const where = 'http://127.0.0.1:9';
const fetchFailed = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });

describe('describeNetworkError', () => {
  it('finds the code wherever fetch put it along the cause chain', () => {
    expect(describeNetworkError(fetchFailed(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })), where, 5_000)).toEqual({ code: 'ECONNREFUSED', message: `nothing accepts connections on ${where} (connection refused): check the host and port.` });
    const nested = fetchFailed(Object.assign(new Error('socket'), { cause: Object.assign(new Error('inner'), { code: 'ECONNRESET' }) }));
    expect(describeNetworkError(nested, where, 5_000).code).toBe('ECONNRESET');
  });

  it('an answer that is not HTTP says so, with or without the parser’s code', () => {
    const withCode = fetchFailed(Object.assign(new Error('Expected HTTP/'), { name: 'HTTPParserError', code: 'HPE_INVALID_CONSTANT' }));
    const without = fetchFailed(Object.assign(new Error('Response does not match the HTTP/1.1 protocol'), { name: 'HTTPParserError', code: undefined }));
    for (const error of [withCode, without]) expect(describeNetworkError(error, where, 5_000).message).toBe(`${where} answered, but not in HTTP: check the port.`);
  });

  it('a deadline is a timeout, and an error with nothing to go on is said as such', () => {
    expect(describeNetworkError(new DOMException('timed out', 'TimeoutError'), where, 5_000)).toEqual({ code: 'ETIMEDOUT', message: `${where} did not answer within 5 s: a firewall, or the wrong host or port.` });
    expect(describeNetworkError(fetchFailed(new Error('???')), where, 5_000)).toEqual({ code: 'NETWORK_ERROR', message: `cannot connect to ${where} (NETWORK_ERROR).` });
  });
});
