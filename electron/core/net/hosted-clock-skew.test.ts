import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedDeployment } from '../../../service/testing/hosted-deployment';
import { startHostedWorkspace, type HostedWorkspace } from '../testing/hosted-workspace';
import { testConnection } from '../workspaces/connection-test';
import { createWorkspaceClient } from '../workspaces/workspace-client';
import type { StoredWorkspace } from '../workspaces/workspace-store';
import { SKEW_TOLERANCE_MS, createServerClock } from './server-clock';

// This computer's clock set wrong against a deployment like the hosted one (TLS, the API on its own host):
// a signed request's auth.expires comes from the clock, the service judges it by its own, and its answers'
// Date header says how far off this computer is. The app signs by the deployment's time.
let hosted: HostedWorkspace;
let d: HostedDeployment;
let workspace: StoredWorkspace;
const HOUR = 3600_000;

beforeAll(async () => {
  hosted = await startHostedWorkspace('skew');
  ({ d, workspace } = hosted);
});
afterAll(async () => {
  await hosted?.close();
});

const clientAt = (offsetMs: number, w: StoredWorkspace = workspace) =>
  createWorkspaceClient(w, { getSecret: async () => d.service.authSecret, clock: () => Date.now() + offsetMs, maxRetries: 0 }).api;

describe("this computer's clock off against a hosted-like deployment", () => {
  it('three hours behind: the first signed request is refused AUTH_EXPIRED, signed again by the Date it answered, and accepted; later ones go once', async () => {
    const api = clientAt(-3 * HOUR);
    const before = d.fronts.api.counts.forwarded;
    const listed = await api.request('GET', '/templates?pagesize=1');
    expect(listed.ok).toBe(true);
    expect(d.fronts.api.counts.forwarded - before).toBe(2);
    const created = await api.createAssembly({
      instructions: { steps: { ':original': { robot: '/upload/handle' } } },
      expectedUploads: 0,
      files: [{ field: 'file', name: 'note.txt', data: new Blob(['hello']) }],
    });
    expect(created.ok && created.value.ok).toMatch(/^ASSEMBLY_(UPLOADING|EXECUTING|COMPLETED)$/);
    expect(d.fronts.api.counts.forwarded - before).toBe(3);
  });

  it('two days ahead (an expiry too far ahead: INVALID_AUTH_EXPIRES_PARAMETER) is corrected the same way', async () => {
    const listed = await clientAt(50 * HOUR).request('GET', '/templates?pagesize=1');
    expect(listed.ok).toBe(true);
  });

  it('Bearer tokens: minted and used while the clock is hours off', async () => {
    const listed = await clientAt(-5 * HOUR, { ...workspace, authMode: 'bearer' }).request('GET', '/templates?pagesize=1');
    expect(listed.ok).toBe(true);
  });

  it('a deployment that sends no Date: the refusal keeps its code and says it is the clock and what to do', async () => {
    d.fault('api', { kind: 'strip-headers', headers: ['date'] });
    try {
      const before = d.fronts.api.counts.forwarded;
      const refused = await clientAt(-3 * HOUR).request('GET', '/templates?pagesize=1');
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      expect(refused.error.code).toBe('AUTH_EXPIRED');
      expect(refused.error.message).toMatch(/expiry time taken from this computer's clock.*set the clock automatically in the system settings/);
      // Nothing to correct by: not sent again.
      expect(d.fronts.api.counts.forwarded - before).toBe(1);
    } finally {
      d.clearFaults();
    }
  });

  it("the connection test warns about the clock but passes: the app's own requests are accepted", async () => {
    const report = await testConnection({ workspace, secret: d.service.authSecret, clock: () => Date.now() - 3 * HOUR });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
    const clock = report.checks.find((c) => c.id === 'clock');
    expect(clock).toMatchObject({ status: 'warn' });
    expect(clock?.message).toMatch(/180 minutes behind the service.*signs them by the service's time/);
  });
});

describe('server clock (pure)', () => {
  it("learns an offset only beyond the tolerance, then tells the deployment's time to within half a second plus the round trip", () => {
    fc.assert(
      fc.property(fc.integer({ min: -100 * HOUR, max: 100 * HOUR }), fc.integer({ min: 0, max: 2_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (skew, rtt, when) => {
        const sentAt = 1_800_000_000_000;
        const clock = createServerClock(() => sentAt);
        // The deployment answered somewhere within the round trip; an HTTP date counts whole seconds.
        const serverAtAnswer = sentAt + skew + when * rtt;
        clock.observe(new Date(Math.floor(serverAtAnswer / 1000) * 1000).toUTCString(), sentAt, sentAt + rtt);
        const margin = 500 + rtt / 2 + 1;
        if (Math.abs(skew) < SKEW_TOLERANCE_MS - margin) expect(clock.offsetMs()).toBe(0);
        if (Math.abs(skew) >= SKEW_TOLERANCE_MS + margin) expect(Math.abs(clock.now() - (sentAt + skew))).toBeLessThanOrEqual(margin);
      }),
    );
  });

  it('no Date, or one it cannot read, changes nothing', () => {
    const clock = createServerClock(() => 0);
    expect(clock.observe(null, 0, 10)).toBe(false);
    expect(clock.observe('yesterday-ish', 0, 10)).toBe(false);
    expect(clock.offsetMs()).toBe(0);
  });
});
