// Encoding stack versions over real HTTP (media-processing-api.md "Versioning" 2): exactly what the spec
// lists is accepted; anything else is refused with the robot's validation code, at the step and key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../auth/signature';
import { buildForm, jpeg, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.stop());

const video = (ffmpeg_stack: unknown) => ({ ':original': { robot: '/upload/handle' }, video: { robot: '/video/encode', use: ':original', preset: 'iphone', ffmpeg_stack } });
const post = (steps: unknown, fields: Record<string, string> = {}, files: { field: string; name: string; data: Uint8Array }[] = []) =>
  postAssembly(fx.service.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps }, fields, files }));

describe('encoding stack versions', () => {
  it('refuses "banana" (and every value the spec does not list) before anything runs', async () => {
    for (const bad of ['banana', 'v9', 'v4.1', 'latest', 7]) {
      const res = await post(video(bad));
      expect(res.status, String(bad)).toBe(400);
      expect(res.body).toMatchObject({ error: 'VIDEO_ENCODE_VALIDATION', step: 'video', parameter: 'ffmpeg_stack' });
      expect(String(res.body.message)).toContain('"v6", "v7", "v8" or a version such as "v7.1" (default "v6.0.0", "v7" recommended)');
    }
  });

  it('accepts v6, v7, v8, the pattern, legacy exact versions and deprecated v5.x', async () => {
    for (const good of ['v6', 'v7', 'v8', '7.1', 'v8.0.2', 'v6.0.0', 'v7.0.0', 'v5', 'v5.4']) {
      const res = await post(video(good));
      expect(res.body.error, good).toBeUndefined();
      expect((await waitForEnd(String(res.body.assembly_ssl_url))).ok, good).toBe('ASSEMBLY_COMPLETED');
    }
  });

  it('checks a stack version from a field once it is interpolated: the step fails with the code', async () => {
    const steps = { ':original': { robot: '/upload/handle' }, thumbs: { robot: '/video/thumbs', use: ':original', ffmpeg_stack: '${fields.stack}' } };
    const created = await post(steps, { stack: 'banana' }, [{ field: 'file', name: 'a.jpg', data: await jpeg(40, 40) }]);
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.error).toBe('VIDEO_THUMBS_VALIDATION');
    expect(String(done.message)).toContain('ffmpeg_stack "banana" is not a stack version');
  });

  it('refuses a Template whose steps name a stack version the spec does not list', async () => {
    const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: new Date(Date.now() + 3600_000).toISOString() }, name: 'stacky', template: JSON.stringify({ steps: video('banana') }) });
    const res = await fetch(`${fx.service.url}/templates`, { method: 'POST', body: new URLSearchParams({ params, signature: signParams(params, fx.service.authSecret, 'sha384') }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'VIDEO_ENCODE_VALIDATION', step: 'video', parameter: 'ffmpeg_stack' });
  });
});
