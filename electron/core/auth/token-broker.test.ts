import { describe, expect, it } from 'vitest';
import { ok } from '../../../shared/result';
import { createTokenBroker } from './token-broker';

/** A minter that records what it was asked for and hands out numbered one-hour tokens. */
const recordingMinter = (clock: () => number) => {
  const asked: (string[] | null)[] = [];
  return {
    asked,
    mint: async (scopes: string[] | null) => {
      asked.push(scopes);
      return ok({ token: `t${asked.length}`, expiresAtMs: clock() + 3_600_000, scopes: scopes ?? [] });
    },
  };
};

describe('token broker', () => {
  it('mints one token per scope, reuses it, and re-mints before it expires', async () => {
    let now = 0;
    const clock = () => now;
    const m = recordingMinter(clock);
    const broker = createTokenBroker({ mint: m.mint, limit: null, clock });
    expect(await broker.get('templates:read')).toEqual(ok('t1'));
    expect(await broker.get('templates:read')).toEqual(ok('t1'));
    expect(await broker.get('auth_keys:read')).toEqual(ok('t2'));
    expect(m.asked).toEqual([['templates:read'], ['auth_keys:read']]);
    now = 3_600_000 - 7 * 60_000; // 7 minutes left of an hour: more than the 6-minute margin
    expect(await broker.get('templates:read')).toEqual(ok('t1'));
    now = 3_600_000 - 5 * 60_000; // inside the margin: a fresh token
    expect(await broker.get('templates:read')).toEqual(ok('t3'));
    expect(await broker.get('templates:read', true)).toEqual(ok('t4'));
  });

  it('shares one mint between concurrent requests, and keeps within the limit', async () => {
    const m = recordingMinter(() => 0);
    const broker = createTokenBroker({ mint: m.mint, limit: ['templates:read', 'templates:write'], clock: () => 0 });
    const answers = await Promise.all([broker.get('templates:read'), broker.get('templates:read'), broker.get('templates:read')]);
    expect(answers.map((a) => a.ok && a.value)).toEqual(['t1', 't1', 't1']);
    // A scope outside the limit gets the limit's scopes: the service then refuses the request and says why.
    await broker.get('auth_keys:read');
    expect(m.asked).toEqual([['templates:read'], ['templates:read', 'templates:write']]);
  });
});
