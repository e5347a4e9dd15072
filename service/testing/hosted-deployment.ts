// A deployment that looks like the hosted one, on loopback, for tests and benchmarks: the local service
// behind TLS (a CA made at run time: test-ca.ts), each role on its own address — the API on 127.0.0.2,
// Assembly status and update streams on a "regional" 127.0.0.3, tus on 127.0.0.4, result files on
// 127.0.0.5 — each through a fault proxy in link mode (round-trip time, bandwidth: link-shaper.ts; the
// vendor's 413/429 answers on demand). The
// service learns each role's public base URL, so assembly_ssl_url, tus_url, update streams and result URLs
// name the right host, as the hosted service's do. Not used by production code.
import { startLocalService, type LocalService, type LocalServiceOptions } from '../index';
import { startFaultProxy, type FaultAction, type FaultProxy, type FaultRule } from './fault-proxy';
import type { LinkOptions } from './link-shaper';
import { createTestCa } from './test-ca';

export type DeploymentRole = 'api' | 'regional' | 'tus' | 'results';

export const ROLE_ADDRESSES: Record<DeploymentRole, string> = {
  api: '127.0.0.2',
  regional: '127.0.0.3',
  tus: '127.0.0.4',
  results: '127.0.0.5',
};

export interface HostedDeploymentOptions extends Omit<LocalServiceOptions, 'publicBaseUrl' | 'publicUrls' | 'port' | 'host'> {
  /** The user's link to every role (the fault proxy's link mode): round trips, bandwidth caps. */
  link?: LinkOptions;
  /** Shorthand for `link: { rttMs, uplinkBps: 0 }` (no cap); default no added round trip. */
  rttMs?: number;
}

export interface HostedDeployment {
  /** The API's base URL (https://127.0.0.2:<port>): a workspace's endpoint. */
  endpoint: string;
  /** PEM of the CA that signed every front's certificate: a workspace's CA file. */
  caPem: string;
  fronts: Record<DeploymentRole, FaultProxy>;
  service: LocalService;
  /**
   * A fault at one role, before the round trip (rules are tried in order, the first that fires wins):
   * e.g. `{ kind: 'status-429', retryIn: 1 }` for the next 2 status fetches.
   */
  fault(role: DeploymentRole, action: FaultAction, o?: Omit<FaultRule, 'action'>): void;
  /** Every fault rule removed (the link stays). */
  clearFaults(): void;
  close(): Promise<void>;
}

export async function startHostedDeployment(o: HostedDeploymentOptions): Promise<HostedDeployment> {
  const ca = await createTestCa('Assemblyline Hosted Test CA');
  const leaf = await ca.issue({ ips: Object.values(ROLE_ADDRESSES), dns: ['localhost'] });
  let serviceUrl = '';
  const { link: linkOption, rttMs, ...serviceOptions } = o;
  const link = linkOption ?? (rttMs ? { rttMs, uplinkBps: 0 } : undefined);
  const roles = Object.keys(ROLE_ADDRESSES) as DeploymentRole[];
  const started = await Promise.all(
    roles.map((role) => startFaultProxy({ target: () => serviceUrl, tls: leaf, host: ROLE_ADDRESSES[role], ...(link ? { link } : {}) })),
  );
  const fronts = Object.fromEntries(roles.map((role, i) => [role, started[i]!])) as Record<DeploymentRole, FaultProxy>;
  const faults: Record<DeploymentRole, FaultRule[]> = { api: [], regional: [], tus: [], results: [] };
  const reset = (role: DeploymentRole): void => {
    fronts[role].clearRules();
    for (const rule of faults[role]) fronts[role].addRule(rule);
  };
  let service: LocalService;
  try {
    service = await startLocalService({
      ...serviceOptions,
      publicBaseUrl: fronts.api.url,
      publicUrls: { regional: fronts.regional.url, tus: fronts.tus.url, results: fronts.results.url },
    });
  } catch (e) {
    await Promise.all(started.map((f) => f.close()));
    throw e;
  }
  serviceUrl = service.url;
  return {
    endpoint: fronts.api.url,
    caPem: ca.caPem,
    fronts,
    service,
    fault: (role, action, rule = {}) => {
      faults[role].push({ ...rule, action });
      reset(role);
    },
    clearFaults: () => {
      for (const role of roles) {
        faults[role] = [];
        reset(role);
      }
    },
    close: async () => {
      await Promise.all(started.map((f) => f.close()));
      await service.close();
    },
  };
}
