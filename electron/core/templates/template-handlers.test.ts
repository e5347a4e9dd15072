// Template channels through core's dispatch, against the real embedded local service (signed requests).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Template, TemplateList } from '../../../shared/ipc/template-models';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';

let dir = '';
let core: Core;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-templates-'));
  core = await createCore(testCorePorts(dir, { secretStore: createKeyringSecretStore('assemblyline-templates-test') }));
}, 60_000);
afterAll(async () => {
  await core.close();
  await rm(dir, { recursive: true, force: true });
});

const steps = { ':original': { robot: '/upload/handle' }, small: { robot: '/image/resize', use: ':original', width: 64 } };

describe('template channels', () => {
  it('creates, finds by keyword, reads, edits and deletes a Template; built-ins on request', async () => {
    const created = await dispatch(core.handlers, 'templates:create', { name: 'Holiday photos', content: { steps }, requireSignatureAuth: 0 });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const t = created.ok ? (created.value as Template) : null;
    expect(t).toMatchObject({ name: 'Holiday photos', content: { steps }, requireSignatureAuth: 0, builtinVersion: null });

    const found = await dispatch(core.handlers, 'templates:list', { keywords: 'holiday' });
    expect(found.ok && (found.value as TemplateList).items.map((i) => i.id)).toEqual([t!.id]);
    const withBuiltins = await dispatch(core.handlers, 'templates:list', { includeBuiltin: 'latest' });
    const ids = withBuiltins.ok ? (withBuiltins.value as TemplateList).items.map((i) => i.id) : [];
    expect(ids[0]).toMatch(/^builtin\//);
    expect(ids).toContain(t!.id);

    const edited = await dispatch(core.handlers, 'templates:update', { id: t!.id, name: 'Holiday photos 2025', content: { steps, allow_steps_override: false } });
    expect(edited.ok && (edited.value as Template)).toMatchObject({ name: 'Holiday photos 2025', content: { allow_steps_override: false } });
    const read = await dispatch(core.handlers, 'templates:get', { id: t!.id });
    expect(read.ok && (read.value as Template).name).toBe('Holiday photos 2025');
    const builtin = await dispatch(core.handlers, 'templates:get', { id: 'builtin/image-resize@latest' });
    expect(builtin.ok && (builtin.value as Template)).toMatchObject({ id: 'builtin/image-resize@0.0.2', builtinVersion: '0.0.2' });

    expect((await dispatch(core.handlers, 'templates:delete', { id: t!.id })).ok).toBe(true);
    const gone = await dispatch(core.handlers, 'templates:get', { id: t!.id });
    expect(gone.ok ? null : gone.error).toMatchObject({ code: 'TEMPLATE_NOT_FOUND', httpCode: 404 });
  });

  it("passes the service's error codes through, and refuses a bad request before it leaves core", async () => {
    const badSteps = await dispatch(core.handlers, 'templates:create', { name: 'broken', content: { steps: { ':original': { robot: '/upload/handle' }, x: { robot: '/nope', use: ':original' } } } });
    expect(badSteps.ok ? null : badSteps.error.code).toBe('ASSEMBLY_STEP_UNKNOWN_ROBOT');
    const badDate = await dispatch(core.handlers, 'templates:list', { fromdate: 'last week' });
    expect(badDate.ok ? null : badDate.error).toMatchObject({ code: 'TEMPLATE_LIST_ERROR', httpCode: 400 });
    const tooBig = await dispatch(core.handlers, 'templates:list', { pagesize: 900 });
    expect(tooBig.ok ? null : tooBig.error.code).toBe('INVALID_IPC_REQUEST');
    const readOnly = await dispatch(core.handlers, 'templates:update', { id: 'builtin/image-resize@0.0.1', name: 'mine' });
    expect(readOnly.ok ? null : readOnly.error.code).toBe('TEMPLATE_BUILTIN_READ_ONLY');
  });
});
