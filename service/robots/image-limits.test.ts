// Issue 25: one ~100-byte request bought gigabytes and CPU-hours (`/image/resize` 25,000 × 25,000 of a 1 × 1
// PNG, up to 1,000 steps). Invariants: no image step makes more than 100 megapixels, the image steps of
// one Assembly write at most their cap, and an Assembly has at most 100 steps — each refused with a code
// before the work, not after it. Real service over real HTTP, real sharp.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTRUCTION_LIMITS } from '../instructions/instruction-limits';
import { validateRobotParams } from '../instructions/robot-params';
import { buildForm, jpeg, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';
import { outputPixels } from './image-resize';

const MP = INSTRUCTION_LIMITS.outputPixels;

describe('image output caps', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({ maxOutputBytes: 200_000 });
  });
  afterAll(async () => fx.stop());

  const create = async (steps: Record<string, unknown>, file: Buffer, name = 'in.png') =>
    postAssembly(fx.service.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps }, files: [{ field: 'file', name, data: file, type: name.endsWith('.png') ? 'image/png' : 'image/jpeg' }] }));

  it('takes any width × height up to 100 megapixels and refuses any above, by the robot\'s validation code (fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 25_000 }), fc.integer({ min: 1, max: 25_000 }), (width, height) => {
        const problem = validateRobotParams('big', '/image/resize', { robot: '/image/resize', width, height });
        if (width * height <= MP) expect(problem).toBeNull();
        else expect(problem).toMatchObject({ code: 'IMAGE_RESIZE_VALIDATION', parameter: 'width' });
      }),
    );
  });

  it('refuses 25,000 × 25,000 when the Assembly is created: nothing runs', async () => {
    const tiny = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } }).png().toBuffer();
    const res = await create({ big: { use: ':original', robot: '/image/resize', width: 25_000, height: 25_000, format: 'png' } }, tiny);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'IMAGE_RESIZE_VALIDATION' });
    expect(String(res.body.message)).toContain('625 megapixels; an image may have at most 100 megapixels');
  });

  it('refuses a size known only from the input (one side given) before making a pixel', async () => {
    // 1 × 4 input, width 20,000: the height follows as 80,000, 1,600 megapixels.
    const tall = await sharp({ create: { width: 1, height: 4, channels: 3, background: '#08f' } }).png().toBuffer();
    const res = await create({ big: { use: ':original', robot: '/image/resize', width: 20_000, resize_strategy: 'stretch', format: 'png' } }, tall);
    expect(res.status).toBe(200);
    const done = await waitForEnd(String(res.body.assembly_ssl_url));
    expect(done).toMatchObject({ error: 'IMAGE_RESIZE_OUTPUT_TOO_LARGE' });
    expect(String(done.message)).toContain('1600 megapixels');
    expect(done.results).toEqual({});
    // The bound the robot checks covers what each strategy makes.
    expect(outputPixels(1, 4, { W: 20_000, H: 80_000 }, 'fit')).toBe(1_600_000_000);
    expect(outputPixels(100, 50, { W: 10, H: 10 }, 'min_fit')).toBe(20 * 10);
  });

  it('ends an Assembly whose image steps write more than its cap, naming the step', async () => {
    const photo = await jpeg(300, 200);
    const steps = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`big${i}`, { use: ':original', robot: '/image/resize', width: 2000, height: 2000, resize_strategy: 'pad', format: 'png', background: '#102030' }]));
    const res = await create(steps, photo, 'p.jpg');
    const done = await waitForEnd(String(res.body.assembly_ssl_url), 60_000);
    expect(done).toMatchObject({ error: 'ASSEMBLY_OUTPUT_TOO_LARGE' });
    expect(String(done.message)).toMatch(/wrote \d+ bytes, more than the 200000/);
    expect(String(done.step)).toMatch(/^big\d$/);
  });

  it('counts what every robot writes, not only image robots: archives of one upload end the Assembly at its cap', async () => {
    // 90 kB that no archive shrinks: each zip of it is ~90 kB, so the third one crosses the 200 kB cap.
    const noise = randomBytes(90_000);
    const steps = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`zip${i}`, { use: ':original', robot: '/file/compress', format: 'zip', archive_name: `copy${i}` }]));
    const res = await postAssembly(fx.service.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps }, files: [{ field: 'file', name: 'noise.bin', data: noise, type: 'application/octet-stream' }] }));
    expect(res.status).toBe(200);
    const done = await waitForEnd(String(res.body.assembly_ssl_url), 60_000);
    expect(done).toMatchObject({ error: 'ASSEMBLY_OUTPUT_TOO_LARGE' });
    expect(String(done.message)).toMatch(/wrote \d+ bytes, more than the 200000/);
    expect(String(done.step)).toMatch(/^zip\d$/);
    // The upload itself (passed on by :original) is no output: one step of the same kind stays within the cap.
    const one = await postAssembly(fx.service.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps: { zip: steps.zip0 } }, files: [{ field: 'file', name: 'noise.bin', data: noise, type: 'application/octet-stream' }] }));
    expect(await waitForEnd(String(one.body.assembly_ssl_url), 60_000)).toMatchObject({ ok: 'ASSEMBLY_COMPLETED' });
  });

  it('refuses more than 100 steps with ASSEMBLY_INVALID_STEPS', async () => {
    const steps = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`s${i}`, { use: ':original', robot: '/image/resize', width: 10 }]));
    const res = await create(steps, await jpeg(10, 10), 'p.jpg');
    expect([res.status, res.body.error]).toEqual([400, 'ASSEMBLY_INVALID_STEPS']);
    expect(String(res.body.message)).toContain('at most 100 are allowed');
  });
});
