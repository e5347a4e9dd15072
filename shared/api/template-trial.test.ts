import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareTrialRuns, localCopyOfTemplate, TRIAL_STORE_PATH } from './template-trial';

const STORES = ['/s3/store', '/minio/store', '/sftp/store', '/ftp/store', '/cloudflare/store', '/backblaze/store'];
const OTHERS = ['/image/resize', '/video/encode', '/file/filter', '/http/import', '/transloadit/store', '/video/adaptive'];

const stepArb = fc.record({
  robot: fc.constantFrom(...STORES, ...OTHERS, '/s3/import', '/sftp/import'),
  use: fc.constantFrom(':original', 'thumb', ['a', 'b']),
  credentials: fc.option(fc.constantFrom('prod_s3', 'shared_ftp', 'local_too'), { nil: undefined }),
  path: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
});

describe('localCopyOfTemplate', () => {
  it('swaps every remote store step the Local workspace cannot run for /transloadit/store, says so, and leaves every other step as it was', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }).filter((k) => k !== '__proto__'), stepArb, { maxKeys: 8 }), fc.boolean(), (raw, notify) => {
        const steps = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined))]));
        const content = { steps, ...(notify ? { notify_url: 'https://hooks.example.com/x' } : {}) };
        const local = new Set(['local_too']);
        const copy = localCopyOfTemplate(content, local);
        const out = copy.content.steps as Record<string, Record<string, unknown>>;
        expect(Object.keys(out)).toEqual(Object.keys(steps));
        expect('notify_url' in copy.content).toBe(false);
        expect(copy.changes.some((c) => c.kind === 'removed' && c.from === 'notify_url')).toBe(notify);
        for (const [name, step] of Object.entries(steps)) {
          const mustSwap = STORES.includes(step.robot as string) && step.credentials !== 'local_too';
          const change = copy.changes.find((c) => c.step === name);
          if (mustSwap) {
            expect(out[name]).toMatchObject({ robot: '/transloadit/store', use: step.use, path: TRIAL_STORE_PATH });
            // Nothing of the remote storage's settings (keys, bucket, credentials) is carried over.
            expect(out[name]).not.toHaveProperty('credentials');
            expect(change).toMatchObject({ kind: 'swapped', from: step.robot, to: '/transloadit/store' });
            if (step.credentials) expect(change?.reason).toContain(`"${step.credentials}"`);
          } else {
            expect(out[name]).toEqual(step);
            if (change) expect(change).toMatchObject({ kind: 'kept-needs-credentials', from: step.robot });
          }
        }
        // The source Template is never changed.
        expect(content.steps).toEqual(steps);
      }),
    );
  });

  it('swaps a store step with the key written into it, so a try never writes to the account\'s bucket', () => {
    const copy = localCopyOfTemplate({ steps: { store: { robot: '/s3/store', use: 'thumb', bucket: 'prod', key: 'AKIA', secret: 's3cr3t' } } }, new Set());
    expect(copy.content).toEqual({ steps: { store: { robot: '/transloadit/store', use: 'thumb', path: TRIAL_STORE_PATH, conflict_strategy: 'rename' } } });
    expect(JSON.stringify(copy.content)).not.toContain('s3cr3t');
    expect(copy.changes[0]?.reason).toContain('its own keys');
  });

  it('says an import whose credentials only the remote has will fail here', () => {
    const copy = localCopyOfTemplate({ steps: { imported: { robot: '/s3/import', credentials: 'prod_s3', path: 'in/' } } }, new Set());
    expect(copy.content.steps).toEqual({ imported: { robot: '/s3/import', credentials: 'prod_s3', path: 'in/' } });
    expect(copy.changes).toEqual([expect.objectContaining({ step: 'imported', kind: 'kept-needs-credentials' })]);
  });
});

describe('compareTrialRuns', () => {
  const remoteContent = { steps: { thumb: { robot: '/image/resize', use: ':original' }, store: { robot: '/s3/store', use: 'thumb' } } };
  const localContent = { steps: { thumb: { robot: '/image/resize', use: ':original' }, store: { robot: '/transloadit/store', use: 'thumb' } } };

  it('gives per step the result count, bytes, dimensions and media duration of each run, with the robot each ran', () => {
    const rows = compareTrialRuns({
      remoteContent,
      localContent,
      remote: {
        ok: 'ASSEMBLY_COMPLETED',
        results: {
          thumb: [
            { size: 100, meta: { width: 256, height: 171 } },
            { size: 50, meta: { width: 256, height: 171 } },
          ],
          store: [{ size: 100, meta: { duration: 2.5 } }, { size: 50, meta: { duration: 1 } }],
        },
      },
      local: { ok: 'ASSEMBLY_COMPLETED', results: { thumb: [{ size: 90, meta: { width: 256, height: 170 } }] } },
    });
    expect(rows).toEqual([
      { step: 'thumb', remoteRobot: '/image/resize', localRobot: '/image/resize', remote: { results: 2, bytes: 150, dimensions: ['256×171'], mediaSeconds: null, error: null }, local: { results: 1, bytes: 90, dimensions: ['256×170'], mediaSeconds: null, error: null } },
      { step: 'store', remoteRobot: '/s3/store', localRobot: '/transloadit/store', remote: { results: 2, bytes: 150, dimensions: [], mediaSeconds: 3.5, error: null }, local: { results: 0, bytes: 0, dimensions: [], mediaSeconds: null, error: null } },
    ]);
  });

  it('puts a failed Assembly\'s error at its step, and a side with no status yet as null', () => {
    const rows = compareTrialRuns({ remoteContent, localContent, remote: null, local: { error: 'S3_STORE_ERROR', message: 'Access denied', step: 'store', results: {} } });
    expect(rows).toEqual([{ step: 'store', remoteRobot: '/s3/store', localRobot: '/transloadit/store', remote: null, local: { results: 0, bytes: 0, dimensions: [], mediaSeconds: null, error: 'S3_STORE_ERROR: Access denied' } }]);
  });
});
