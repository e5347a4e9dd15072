// GET /assembly_stats over real HTTP: real Assemblies (successful, failing, cancelled) counted in their
// bucket with the bytes and durations the test takes from what it sent and from the status records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedCall } from '../testing/signed-call';
import { abortedUpload, startFixture, type Fixture } from '../testing/service-fixture';
import { runUsageAssemblies, type UsageRun } from '../testing/usage-runs';

const TOP_LEVEL = [
  'ok', 'granularity', 'stats', 'errorStats', 'errorStatsGranularity', 'errorStatsTotals', 'totalAssemblies', 'totalBytesProcessed',
  'totalBytesUploaded', 'totalExecutionDuration', 'totalFilesProcessed', 'totalLiveQueueDuration', 'totalOutputBytesProcessed',
  'totalOutputFilesProcessed', 'totalUploadDuration', 'totalUsage',
];
const ELEMENT = [
  'data_from_ts', 'num_assemblies', 'num_bytes', 'num_cancelled_assemblies', 'num_erroneous_assemblies', 'num_files',
  'num_request_aborted_assemblies', 'num_successful_assemblies', 'avg_execution_duration', 'avg_live_queue_duration',
  'avg_upload_duration', 'avg_input_file_sizes', 'avg_output_file_sizes', 'avg_processing_speed', 'avg_upload_speed',
  'total_bytes_usage', 'total_execution_duration', 'total_live_queue_duration', 'total_num_output_files',
  'total_num_uploaded_bytes', 'total_output_file_sizes', 'total_upload_duration',
];

type Stats = { stats: Record<string, number>[]; errorStats: Record<string, unknown>[] } & Record<string, unknown>;
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

describe('GET /assembly_stats', () => {
  let fx: Fixture;
  let run: UsageRun;
  let t0: number;
  const stats = (params: Record<string, unknown>) => signedCall(fx.service, 'GET', '/assembly_stats', params);
  beforeAll(async () => {
    fx = await startFixture();
    t0 = Math.floor(Date.now() / 1000);
    run = await runUsageAssemblies(fx.service);
  }, 30_000);
  afterAll(async () => {
    await fx.stop();
  });

  it('answers ASSEMBLY_STATS_FOUND with exactly the spec fields, counting each outcome in its bucket', async () => {
    const { status, body } = await stats({ since: t0 - 3600, until: t0 + 3600, region: 'local' });
    expect(status).toBe(200);
    const b = body as Stats;
    expect(Object.keys(b).sort()).toEqual([...TOP_LEVEL].sort());
    expect(b).toMatchObject({ ok: 'ASSEMBLY_STATS_FOUND', granularity: 3600, errorStatsGranularity: 3600 });
    expect(b.stats.map((s) => s.data_from_ts)).toEqual([t0 - 3600, t0]);
    for (const s of b.stats) expect(Object.keys(s).sort()).toEqual([...ELEMENT].sort());
    const [empty, full] = b.stats as [Record<string, number>, Record<string, number>];
    expect(Object.entries(empty).filter(([k, v]) => k !== 'data_from_ts' && v !== 0)).toEqual([]);

    const statuses = [run.successful, run.erroneous, run.cancelled];
    const exec = statuses.reduce((n, s) => n + num(s.execution_duration), 0);
    const upload = statuses.reduce((n, s) => n + num(s.upload_duration), 0);
    // Real since job slots: the wait for a slot each status record reports.
    const queued = statuses.reduce((n, s) => n + num(s.queue_duration), 0);
    expect(full).toMatchObject({
      num_assemblies: 3,
      num_successful_assemblies: 1,
      num_erroneous_assemblies: 1,
      num_cancelled_assemblies: 1,
      num_request_aborted_assemblies: 0,
      num_files: run.uploadedFiles,
      num_bytes: run.resizeInputBytes,
      total_num_uploaded_bytes: run.uploadedBytes,
      total_num_output_files: run.outputFiles,
      total_output_file_sizes: run.outputBytes,
      total_bytes_usage: run.uploadedBytes + run.resizeInputBytes,
    });
    expect(full.total_live_queue_duration).toBeCloseTo(queued, 6);
    expect(full.avg_live_queue_duration).toBeCloseTo(queued / 3, 6);
    expect(full.total_execution_duration).toBeCloseTo(exec, 6);
    expect(full.avg_execution_duration).toBeCloseTo(exec / 3, 6);
    expect(full.total_upload_duration).toBeCloseTo(upload, 6);
    expect(full.avg_upload_duration).toBeCloseTo(upload / 3, 6);
    expect(full.avg_input_file_sizes).toBeCloseTo(run.uploadedBytes / run.uploadedFiles, 6);
    expect(full.avg_output_file_sizes).toBeCloseTo(run.outputBytes / run.outputFiles, 6);
    // Megabits per second over the Assemblies that took time: only the successful one processed bytes.
    expect(full.avg_processing_speed).toBeCloseTo((run.resizeInputBytes * 8) / 1e6 / exec, 6);

    expect(b.errorStats).toEqual([{ data_from_ts: t0, error: run.erroneous.error, num_erroneous_assemblies: 1 }]);
    expect(b.errorStatsTotals).toEqual([{ error: run.erroneous.error, num_erroneous_assemblies: 1 }]);
    expect(b).toMatchObject({
      totalAssemblies: 3,
      totalBytesUploaded: run.uploadedBytes,
      totalBytesProcessed: run.resizeInputBytes,
      totalFilesProcessed: run.uploadedFiles,
      totalOutputFilesProcessed: run.outputFiles,
      totalOutputBytesProcessed: run.outputBytes,
      totalUsage: run.uploadedBytes + run.resizeInputBytes,
    });
    expect(b.totalLiveQueueDuration as number).toBeCloseTo(queued, 6);
    expect(b.totalExecutionDuration as number).toBeCloseTo(exec, 6);
  });

  it('counts the same for region "all", and returns empty buckets for an unknown region', async () => {
    const all = (await stats({ since: t0 - 3600, until: t0 + 3600, region: 'all' })).body as Stats;
    expect(all.totalAssemblies).toBe(3);
    const elsewhere = (await stats({ since: t0 - 3600, until: t0 + 3600, region: 'eu-west-1' })).body as Stats;
    expect(elsewhere).toMatchObject({ ok: 'ASSEMBLY_STATS_FOUND', totalAssemblies: 0, errorStats: [], errorStatsTotals: [] });
    expect(elsewhere.stats.map((s) => s.num_assemblies)).toEqual([0, 0]);
  });

  it('takes "YYYY-MM-DD HH:mm:ss" UTC times, defaults until to now, and includes empty buckets with no gaps', async () => {
    const since = new Date((t0 - 10 * 3600) * 1000).toISOString().slice(0, 19).replace('T', ' ');
    const b = (await stats({ since, region: 'local' })).body as Stats;
    expect(b.ok).toBe('ASSEMBLY_STATS_FOUND');
    expect(b.stats.length).toBe(11);
    expect(b.stats.every((s, i) => s.data_from_ts === t0 - 10 * 3600 + i * 3600)).toBe(true);
    expect(b.stats.at(-1)!.num_assemblies).toBe(3);
    expect(b.stats.slice(0, 10).every((s) => s.num_assemblies === 0)).toBe(true);
  });

  it('raises the granularity so at most 1,000 buckets come back, and says so', async () => {
    const b = (await stats({ since: t0 - 30 * 86400, until: t0 + 60, region: 'local', granularity: 60 })).body as Stats;
    expect(b.granularity).toBe(Math.ceil((30 * 86400 + 60) / 1000));
    expect(b.stats.length).toBeLessThanOrEqual(1000);
    expect(b.totalAssemblies).toBe(3);
    const day = (await stats({ since: t0 + 60 - 86400, until: t0 + 60, region: 'all', granularity: '86400' })).body as Stats;
    expect([day.granularity, day.stats.length, day.totalAssemblies]).toEqual([86400, 1, 3]);
  });

  it('refuses bad times, a missing region and a bad granularity with the spec codes', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ region: 'local' }, 'ASSEMBLY_STATS_INVALID_TIME'],
      [{ since: 'yesterday', region: 'local' }, 'ASSEMBLY_STATS_INVALID_TIME'],
      [{ since: '2026-02-31 00:00:00', region: 'local' }, 'ASSEMBLY_STATS_INVALID_TIME'],
      [{ since: -5, region: 'local' }, 'ASSEMBLY_STATS_INVALID_TIME'],
      [{ since: t0, until: t0 - 10, region: 'local' }, 'ASSEMBLY_STATS_INVALID_TIME'],
      [{ since: t0 - 10, until: 'later', region: 'local' }, 'ASSEMBLY_STATS_INVALID_TIME'],
      [{ since: t0 - 3600 }, 'ASSEMBLY_STATS_MISSING_REGION'],
      [{ since: t0 - 3600, region: '' }, 'ASSEMBLY_STATS_MISSING_REGION'],
      [{ since: t0 - 3600, region: 7 }, 'ASSEMBLY_STATS_MISSING_REGION'],
      [{ since: t0 - 3600, region: 'local', granularity: 0 }, 'ASSEMBLY_STATS_ERROR'],
      [{ since: t0 - 3600, region: 'local', granularity: 'hourly' }, 'ASSEMBLY_STATS_ERROR'],
      [{ since: t0 - 3600, region: 'local', granularity: 1.5 }, 'ASSEMBLY_STATS_ERROR'],
      [{ since: t0 - 3600, region: 'local', granularity: 1e308 }, 'ASSEMBLY_STATS_ERROR'],
      [{ since: 1e308, region: 'local' }, 'ASSEMBLY_STATS_INVALID_TIME'],
      [{ since: t0 - 3600, until: 2 ** 53 + 2, region: 'local' }, 'ASSEMBLY_STATS_INVALID_TIME'],
    ];
    for (const [params, code] of cases) {
      const { status, body } = await stats(params);
      expect([JSON.stringify(params), status, body.error]).toEqual([JSON.stringify(params), 400, code]);
      expect(String(body.message)).not.toBe('');
    }
  });

  it('needs a signature or a Bearer token with assemblies:read', async () => {
    const params = JSON.stringify({ auth: { key: fx.service.authKey }, since: t0 - 60, region: 'all' });
    const unsigned = await fetch(`${fx.service.url}/assembly_stats?${new URLSearchParams({ params })}`);
    expect([unsigned.status, ((await unsigned.json()) as { error: string }).error]).toEqual([401, 'NO_SIGNATURE_FIELD']);
    const forged = await fetch(`${fx.service.url}/assembly_stats?${new URLSearchParams({ params: JSON.stringify({ auth: { key: fx.service.authKey, expires: new Date(Date.now() + 60_000).toISOString() }, since: t0 - 60, region: 'all' }), signature: 'sha384:00' })}`);
    expect(((await forged.json()) as { error: string }).error).toBe('INVALID_SIGNATURE');
    const mint = async (scope: string): Promise<string> => {
      const res = await fetch(`${fx.service.url}/token`, {
        method: 'POST',
        headers: { Authorization: `Basic ${Buffer.from(`${fx.service.authKey}:${fx.service.authSecret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
      });
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const query = new URLSearchParams({ params: JSON.stringify({ since: t0 - 3600, until: t0 + 3600, region: 'all' }) });
    const ok = await fetch(`${fx.service.url}/assembly_stats?${query}`, { headers: { Authorization: `Bearer ${await mint('assemblies:read')}` } });
    expect([ok.status, ((await ok.json()) as { totalAssemblies: number }).totalAssemblies]).toEqual([200, 3]);
    const denied = await fetch(`${fx.service.url}/assembly_stats?${query}`, { headers: { Authorization: `Bearer ${await mint('billing:read')}` } });
    expect([denied.status, ((await denied.json()) as { error: string }).error]).toEqual([403, 'INSUFFICIENT_AUTH_SCOPE']);
  });

  // Last: it adds a fourth Assembly.
  it('counts a request whose connection dropped as request-aborted, with the bytes its status record says arrived', async () => {
    const id = 'ab'.repeat(16);
    const status = await abortedUpload(fx.service.url, id, fx.service.authKey);
    expect(status.ok).toBe('REQUEST_ABORTED');
    const b = (await stats({ since: t0 - 3600, until: Math.floor(Date.now() / 1000) + 60, region: 'all', granularity: 7200 })).body as Stats;
    expect(b.stats).toHaveLength(1);
    expect(b.stats[0]).toMatchObject({ num_assemblies: 4, num_request_aborted_assemblies: 1, num_successful_assemblies: 1, num_files: run.uploadedFiles });
    expect(b.totalBytesUploaded).toBe(run.uploadedBytes + Number(status.bytes_received));
  });
});
