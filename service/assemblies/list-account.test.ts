// Issue 25: GET /assemblies lists the account's Assemblies, whichever of its keys made them — replay,
// notifications, the bill and statistics are account-wide, and after a key rotation in the app Activity
// (signing with the new key) must still list the Assemblies the old key made. Real service, real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedCall } from '../testing/signed-call';
import { buildForm, inOneHourIso, postAssembly, startFixture, type Fixture } from '../testing/service-fixture';

describe('the Assembly list across keys', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => fx.stop());

  it('lists an Assembly made with the old key when signed with a new one, and after the old key is deactivated', async () => {
    const made = await postAssembly(
      fx.service.url,
      buildForm({ params: { auth: { key: fx.service.authKey, expires: inOneHourIso() }, steps: { ':original': { robot: '/upload/handle' } } }, secret: fx.service.authSecret }),
    );
    const id = String(made.body.assembly_id);
    const created = await signedCall(fx.service, 'POST', '/auth_keys', { description: 'rotated in' });
    const rotated = { url: fx.service.url, authKey: String((created.body.auth_key as { auth_key: string }).auth_key), authSecret: String(created.body.auth_secret) };
    const old = (created.body.auth_key as { id: string }).id;
    expect(old).toBeTruthy();
    const listed = await signedCall(rotated, 'GET', '/assemblies', { pagesize: 50 });
    expect(listed.status).toBe(200);
    expect((listed.body.items as { id: string }[]).map((i) => i.id)).toContain(id);
    // The rotation ends with the old key inactive: its Assemblies stay listed.
    const keys = await signedCall(rotated, 'GET', '/auth_keys');
    const first = (keys.body.auth_keys as { id: string; auth_key: string }[]).find((k) => k.auth_key === fx.service.authKey)!;
    expect((await signedCall(rotated, 'PUT', `/auth_keys/${first.id}`, { is_active: false })).body.ok).toBe('AUTH_KEY_UPDATED');
    const after = await signedCall(rotated, 'GET', '/assemblies', { pagesize: 50, keywords: [id] });
    expect(after.body.count).toBe(1);
    expect((after.body.items as { id: string; account_id: string }[])[0]).toMatchObject({ id, account_id: 'local' });
  });
});
