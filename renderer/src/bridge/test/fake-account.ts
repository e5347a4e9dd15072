import type { Bill, Stats, StatsRequest } from '../../../../shared/ipc/account-models';

/** A bill as core answers `account:bill` (renderer unit tests only): 3 days of usage, three robots. */
export const sampleBill = (month: string, over: Partial<Bill> = {}): Bill => ({
  month,
  invoiceId: null,
  plan: { name: 'local-free', pricePerMonth: 0, gbIncluded: 10, pricePerGb: 0, gbLimit: null, hasLifetimeLimit: false },
  usedGb: 2.5,
  additionalGb: 0,
  additionalGbFee: 0,
  subTotal: 0,
  vat: 0,
  total: 0,
  currency: null,
  robots: [
    { robot: '/assemblies', rawGb: 1, gb: 1, freeGb: 0, factor: 1, factorApplied: false },
    { robot: '/image/resize', rawGb: 0.5, gb: 0.5, freeGb: 0, factor: 1, factorApplied: false },
    { robot: '/video/encode', rawGb: 0.5, gb: 1, freeGb: 0, factor: 2, factorApplied: true },
  ],
  days: [
    { date: `${month}-01`, gb: 0.5, assemblies: 1 },
    { date: `${month}-02`, gb: 0, assemblies: 0 },
    { date: `${month}-03`, gb: 2, assemblies: 3 },
  ],
  ...over,
});

/** Statistics as core answers `account:stats`: two buckets of the asked range, one error kind. */
export const sampleStats = (request: StatsRequest, over: Partial<Stats> = {}): Stats => {
  const g = request.granularity ?? 3600;
  const bucket = (from: number, n: number) => ({
    from, assemblies: n, successful: Math.max(0, n - 2), canceled: n > 0 ? 1 : 0, erroneous: n > 1 ? 1 : 0, requestAborted: 0,
    files: n, bytesIn: n * 1_000_000, bytesOut: n * 250_000, avgUploadS: 0.5, avgQueueS: 0.2, avgExecutionS: 1.5,
  });
  return {
    region: request.region === 'workspace' ? 'local' : request.region,
    since: request.since,
    until: request.until,
    granularity: g,
    buckets: [bucket(request.since, 0), bucket(request.since + g, 4)],
    errors: [{ error: 'INVALID_INPUT_ERROR', count: 1 }],
    totals: { assemblies: 4, filesProcessed: 4, outputFiles: 4, bytesUploaded: 4_000_000, bytesProcessed: 4_000_000, outputBytes: 1_000_000, uploadS: 2, queueS: 0.8, executionS: 6, usage: 4_000_000 },
    ...over,
  };
};
