// Finding 6 of issue 10: long `use` chains, cycles and deep nesting answer a 4xx with a code, never a
// 500, and leave no Assembly folder behind. Pure checks first, then over real HTTP.
import { randomUUID } from 'node:crypto';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../auth/signature';
import { getJson, inOneHourIso, postAssembly, startFixture, type Fixture } from '../testing/service-fixture';
import { INSTRUCTION_LIMITS, jsonTextTooDeep, valueTooDeep } from './instruction-limits';
import { openTemplateStore } from '../templates/template-store';
import { topologicalOrder } from './validate-instructions';

/** `depth` nested arrays around 1, as JSON text (built as text: JSON.stringify itself would overflow). */
const deepArrayText = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const deepObjectText = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** step0 ← step1 ← … ← step(n-1), each using the one before; `cycle` makes step0 use the last one. */
function chain(n: number, cycle = false): Record<string, { robot: string; use: string }> {
  const steps: Record<string, { robot: string; use: string }> = {};
  for (let i = 0; i < n; i++) steps[`s${i}`] = { robot: '/image/resize', use: i === 0 ? (cycle ? `s${n - 1}` : ':original') : `s${i - 1}` };
  return steps;
}

describe('topological order and depth checks (pure)', () => {
  it('orders a 100,000-step use chain without running out of stack', () => {
    const steps = chain(100_000);
    // Declared last-first, so every step must wait for the whole chain before it.
    const reversed = Object.fromEntries(Object.entries(steps).reverse());
    const result = topologicalOrder(reversed);
    expect('order' in result && result.order.length).toBe(100_001); // the chain plus the implicit :original
    if ('order' in result) expect([result.order[0], result.order[1], result.order.at(-1)]).toEqual([':original', 's0', 's99999']);
  });

  it('finds a 100,000-step cycle and names it', () => {
    const result = topologicalOrder(chain(100_000, true));
    expect('loop' in result).toBe(true);
    if ('loop' in result) {
      expect(result.loop).toHaveLength(100_001);
      expect(result.loop[0]).toBe(result.loop.at(-1));
    }
  });

  it('measures nesting in JSON text (ignoring brackets inside strings) and in values', () => {
    expect(jsonTextTooDeep(deepArrayText(INSTRUCTION_LIMITS.jsonDepth))).toBe(false);
    expect(jsonTextTooDeep(deepArrayText(INSTRUCTION_LIMITS.jsonDepth + 1))).toBe(true);
    expect(jsonTextTooDeep(JSON.stringify({ text: '[[[[[[[[[[\\"{{{{{{{{' }), 3)).toBe(false);
    expect(valueTooDeep(JSON.parse(deepObjectText(10_000)))).toBe(true);
    expect(valueTooDeep(JSON.parse(deepObjectText(INSTRUCTION_LIMITS.jsonDepth)))).toBe(false);
    // object, steps, a, use[], {name}, fields[]: six levels.
    const real = { steps: { a: { use: [{ name: 'b', fields: ['x'] }] } } };
    expect([valueTooDeep(real, 6), valueTooDeep(real, 5)]).toEqual([false, true]);
  });
});

describe('oversized instructions over HTTP', () => {
  let fx: Fixture;
  let nonce = 0;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(() => fx.stop());

  const newId = (): string => randomUUID().replace(/-/g, '');
  const exists = (path: string): Promise<boolean> => access(path).then(() => true, () => false);

  /** A multipart Assembly (params text, then one file) under a chosen id: answer and whether its folder exists after. */
  async function createWith(paramsText: string): Promise<{ status: number; body: Record<string, unknown>; folderLeft: boolean }> {
    const id = newId();
    const form = new FormData();
    form.set('params', paramsText);
    form.append('file', new Blob([new Uint8Array(4096).fill(7)]), 'f.bin');
    const res = await postAssembly(fx.service.url, form, `/assemblies/${id}`);
    return { ...res, folderLeft: await exists(join(fx.dataDir, 'assemblies', id)) };
  }
  const withSteps = (steps: unknown): string => JSON.stringify({ auth: { key: fx.service.authKey }, steps });

  it('answers a 10,000-step use chain with 400 ASSEMBLY_INVALID_STEPS and leaves no folder', async () => {
    const r = await createWith(withSteps({ ':original': { robot: '/upload/handle' }, ...chain(10_000) }));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'ASSEMBLY_INVALID_STEPS', http_code: 400 });
    expect(String(r.body.message)).toContain(`at most ${INSTRUCTION_LIMITS.steps}`);
    expect(r.folderLeft).toBe(false);
  });

  it('answers use cycles with a 400 and a code, long or short, and leaves no folder', async () => {
    const short = await createWith(withSteps({ ':original': { robot: '/upload/handle' }, ...chain(INSTRUCTION_LIMITS.steps - 1, true) }));
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('ASSEMBLY_INFINITE');
    expect(short.folderLeft).toBe(false);
    const long = await createWith(withSteps(chain(10_000, true)));
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('ASSEMBLY_INVALID_STEPS');
    expect(long.folderLeft).toBe(false);
  });

  it('answers 10,000-deep fields in params with 400 INVALID_PARAMS_FIELD and leaves no folder', async () => {
    const steps = JSON.stringify({ ':original': { robot: '/upload/handle' } });
    for (const deep of [deepArrayText(10_000), deepObjectText(10_000)]) {
      const r = await createWith(`{"auth":{"key":"${fx.service.authKey}"},"steps":${steps},"fields":{"x":${deep}}}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'INVALID_PARAMS_FIELD', http_code: 400 });
      expect(r.folderLeft).toBe(false);
    }
    // The service is still whole: a normal Assembly runs.
    const ok = await createWith(withSteps({ ':original': { robot: '/upload/handle' } }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('refuses 10,000-deep Template content (as a string and as an object) with 400 TEMPLATE_INVALID_JSON', async () => {
    const post = async (templateJson: string): Promise<{ status: number; body: Record<string, unknown> }> => {
      const params = `{"auth":{"key":"${fx.service.authKey}","expires":"${inOneHourIso()}"},"nonce":"deep-${++nonce}","name":"deep-${nonce}","template":${templateJson}}`;
      const body = new URLSearchParams({ params, signature: signParams(params, fx.service.authSecret, 'sha384') });
      const res = await fetch(`${fx.service.url}/templates`, { method: 'POST', body });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const content = `{"steps":{":original":{"robot":"/upload/handle"}},"fields":{"x":${deepObjectText(10_000)}}}`;
    for (const form of [JSON.stringify(content), content]) {
      const r = await post(form);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'TEMPLATE_INVALID_JSON', http_code: 400 });
    }
    // Nothing was stored: listing Templates still works and shows none of them.
    const listParams = JSON.stringify({ auth: { key: fx.service.authKey, expires: inOneHourIso() }, nonce: `list-${++nonce}` });
    const list = await getJson(`${fx.service.url}/templates?signature=${signParams(listParams, fx.service.authSecret, 'sha384')}&params=${encodeURIComponent(listParams)}`);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(0);
  });

  it('refuses to run a Template whose stored content nests too deep (saved before the cap): 400, no folder', async () => {
    const store = openTemplateStore(fx.dataDir);
    const deep = JSON.parse(deepObjectText(200)) as unknown;
    const legacy = store.create({ name: 'legacy-deep', content: { steps: { ':original': { robot: '/upload/handle' } }, fields: { x: deep } } }, Date.now());
    store.close();
    const r = await createWith(JSON.stringify({ auth: { key: fx.service.authKey }, template_id: legacy.id }));
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('TEMPLATE_INVALID_JSON');
    expect(r.folderLeft).toBe(false);
  });
});
