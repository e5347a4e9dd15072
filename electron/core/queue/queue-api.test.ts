import { describe, expect, it } from 'vitest';
import { FirstSeen, statsWindow, toJobSlots } from './queue-api';

const A = 'a'.repeat(32);

describe('toJobSlots', () => {
  it('reads the hosted shape: robot unknown, start = when core first saw the job, kept across polls', () => {
    const seen = new FirstSeen();
    const body = { ok: 'PRIORITY_JOB_SLOTS_FOUND', priority_job_slots: { count: 1, slots: { [A]: { encoded: { job1: 1 } } } } };
    const first = toJobSlots(body, seen, Date.UTC(2026, 0, 1, 0, 0, 0));
    const later = toJobSlots(body, seen, Date.UTC(2026, 0, 1, 0, 0, 30));
    expect(first.ok && later.ok).toBe(true);
    if (!later.ok) return;
    expect(later.value).toMatchObject({ inUse: 1, total: null, waiting: null });
    expect(later.value.jobs).toEqual([{ assemblyId: A, step: 'encoded', jobId: 'job1', robot: null, startedAt: '2026-01-01T00:00:00.000Z' }]);
  });

  it('uses the local service details when present', () => {
    const body = {
      ok: 'PRIORITY_JOB_SLOTS_FOUND',
      priority_job_slots: { count: 1, slots: { [A]: { encoded: { job1: 1 } } } },
      queue_details: { slots_total: 4, jobs: [{ assembly_id: A, step: 'encoded', job_id: 'job1', robot: '/video/encode', started_at: '2026-01-01T00:00:05.000Z' }], waiting: [] },
    };
    const r = toJobSlots(body, new FirstSeen(), Date.UTC(2026, 0, 1, 0, 1));
    expect(r.ok && r.value).toMatchObject({ total: 4, waiting: [], jobs: [{ robot: '/video/encode', startedAt: '2026-01-01T00:00:05.000Z' }] });
  });

  it('refuses an answer of another shape with INVALID_SERVICE_RESPONSE', () => {
    const r = toJobSlots({ ok: 'PRIORITY_JOB_SLOTS_FOUND', priority_job_slots: { count: 'many' } }, new FirstSeen(), 0);
    expect(!r.ok && r.error.code).toBe('INVALID_SERVICE_RESPONSE');
  });
});

describe('statsWindow', () => {
  it('ends at the next bucket boundary, so the buckets stay put while the screen polls', () => {
    const now = Date.UTC(2026, 0, 1, 10, 30, 20);
    expect(statsWindow('hour', now)).toEqual({ since: Date.UTC(2026, 0, 1, 9, 31) / 1000, until: Date.UTC(2026, 0, 1, 10, 31) / 1000, granularity: 60 });
    expect(statsWindow('day', now)).toMatchObject({ granularity: 900, until: Date.UTC(2026, 0, 1, 10, 45) / 1000 });
  });
});
