import { describe, expect, it } from 'vitest';
import { assemblyStats } from './assembly-stats';
import { parseStatsParams, parseStatsTime } from './stats-params';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0, 500);

describe('statistics params', () => {
  it('reads Unix seconds and UTC date-times', () => {
    expect(parseStatsTime(1_790_000_000)).toBe(1_790_000_000);
    expect(parseStatsTime('1790000000')).toBe(1_790_000_000);
    expect(parseStatsTime('2026-11-25 12:00:00')).toBe(Date.UTC(2026, 10, 25, 12) / 1000);
    expect(parseStatsTime(undefined)).toBeNull();
    for (const bad of [-1, 1.5, 1e308, 'NOW()', 'tomorrow', '2026-02-30 00:00:00', {}, true]) expect(parseStatsTime(bad), JSON.stringify(bad)).toBeNaN();
  });

  it('defaults until to the end of the current second and granularity to an hour; raises it to keep 1,000 buckets', () => {
    const day = Math.floor(NOW / 1000) - 86_400;
    expect(parseStatsParams({ since: day, region: 'all' }, NOW)).toEqual({ sinceS: day, untilS: Math.floor(NOW / 1000) + 1, region: null, granularity: 3600 });
    expect(parseStatsParams({ since: 0, until: 10_000_000, region: 'local', granularity: '60' }, NOW)).toMatchObject({ region: 'local', granularity: 10_000 });
  });

  it('names the problem with the spec codes', () => {
    const code = (p: Record<string, unknown>) => (parseStatsParams(p, NOW) as { code?: string }).code;
    expect(code({ region: 'all' })).toBe('ASSEMBLY_STATS_INVALID_TIME');
    expect(code({ since: 100, until: 100, region: 'all' })).toBe('ASSEMBLY_STATS_INVALID_TIME');
    expect(code({ since: 100 })).toBe('ASSEMBLY_STATS_MISSING_REGION');
    expect(code({ since: 100, region: 'x'.repeat(65) })).toBe('ASSEMBLY_STATS_MISSING_REGION');
    expect(code({ since: 100, region: 'all', granularity: -60 })).toBe('ASSEMBLY_STATS_ERROR');
  });
});

describe('assemblyStats', () => {
  it('fills every bucket, sums the totals, and sorts the error totals by count', () => {
    const bucket = { k: 1, assemblies: 2, successful: 1, cancelled: 0, erroneous: 1, requestAborted: 0, filesUploaded: 4, bytesUploaded: 4_000_000, processedBytes: 1_000_000, outputFiles: 2, outputBytes: 500, uploadS: 2, queueS: 1, executionS: 4, timedUploadBytes: 4_000_000, timedProcessedBytes: 1_000_000 };
    const out = assemblyStats({ sinceS: 100, untilS: 400, region: null, granularity: 100 }, [bucket], [{ k: 1, error: 'B', n: 1 }, { k: 2, error: 'A', n: 2 }, { k: 2, error: 'B', n: 2 }]);
    const stats = out.stats as Record<string, number>[];
    expect(stats.map((s) => [s.data_from_ts, s.num_assemblies])).toEqual([[100, 0], [200, 2], [300, 0]]);
    expect(stats[1]).toMatchObject({ avg_upload_duration: 1, avg_execution_duration: 2, avg_live_queue_duration: 0.5, avg_input_file_sizes: 1_000_000, avg_output_file_sizes: 250, avg_upload_speed: 16, avg_processing_speed: 2, total_bytes_usage: 5_000_000 });
    expect(stats[0]).toMatchObject({ avg_upload_speed: 0, avg_input_file_sizes: 0 });
    expect(out.errorStats).toEqual([{ data_from_ts: 200, error: 'B', num_erroneous_assemblies: 1 }, { data_from_ts: 300, error: 'A', num_erroneous_assemblies: 2 }, { data_from_ts: 300, error: 'B', num_erroneous_assemblies: 2 }]);
    expect(out.errorStatsTotals).toEqual([{ error: 'B', num_erroneous_assemblies: 3 }, { error: 'A', num_erroneous_assemblies: 2 }]);
    expect(out).toMatchObject({ totalAssemblies: 2, totalUsage: 5_000_000, totalUploadDuration: 2 });
  });
});
