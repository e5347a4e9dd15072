// The browser host's picked files are staged copies: a restart keeps those the saved draft still names.
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppErrorCode } from '../../../shared/result';
import type { DraftChoice } from '../../../shared/ipc/draft-choice';
import type { DraftRow, DraftSummary } from '../../../shared/ipc/transfer-models';
import { createCore } from '../create-core';
import { callCore, testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { createFileSecretStore } from '../vault/file-secret-store';

let dir = '';

const start = () =>
  createCore(
    testCorePorts(dir, {
      secretStore: createFileSecretStore(path.join(dir, 'secrets.json')),
      version: 'test',
    }),
  );


const exists = (p: string) => stat(p).then(() => true, () => false);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-draft-staging-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the saved draft and the staging folder', () => {
  it('keeps the staged copies the draft names across a restart, prunes the rest, and lets them go after Clear', async () => {
    const choice: DraftChoice = { presetId: 'custom', customText: '{\n  ":original": { "robot": "/upload/handle" }\n}', templateId: null, templateFields: {} };
    let core = await start();
    const picked = path.join(core.stagingDir, 'b-picked', 'photos');
    const stale = path.join(core.stagingDir, 'b-stale', 'old');
    for (const folder of [picked, stale]) await mkdir(folder, { recursive: true });
    await writeFile(path.join(picked, 'a.jpg'), 'a');
    await writeFile(path.join(picked, 'b.jpg'), 'b');
    await writeFile(path.join(stale, 'x.jpg'), 'x');
    await callCore(core, 'drafts:add', { handles: [core.files.register(picked)] });
    await core.drafts.idle();
    await callCore(core, 'drafts:saveChoice', { choice });
    await core.close();

    core = await start();
    try {
      expect(await exists(picked)).toBe(true);
      expect(await exists(stale)).toBe(false);
      await core.drafts.idle();
      expect(await callCore<DraftSummary>(core, 'drafts:get', {})).toMatchObject({ files: 2, scanning: false });
      const rows = await callCore<{ rows: DraftRow[] }>(core, 'drafts:rows', { offset: 0, limit: 10 });
      expect(rows.rows.map((r) => r.relativePath)).toEqual(['photos/a.jpg', 'photos/b.jpg']);
      expect(await callCore(core, 'drafts:choice', {})).toEqual(choice);
      // A choice that is not one is refused with the contract's code, and changes nothing.
      const bad = await dispatch(core.handlers, 'drafts:saveChoice', { choice: { presetId: '', customText: 3 } });
      expect(bad.ok ? null : bad.error.code).toBe(AppErrorCode.invalidRequest);
      expect(await callCore(core, 'drafts:choice', {})).toEqual(choice);
      await callCore(core, 'drafts:clear', {});
    } finally {
      await core.close();
    }

    core = await start();
    try {
      expect(await exists(picked)).toBe(false);
      expect(await callCore<DraftSummary>(core, 'drafts:get', {})).toMatchObject({ files: 0 });
      // The choice is what to do with files, not the files: Clear keeps it.
      expect(await callCore(core, 'drafts:choice', {})).toEqual(choice);
    } finally {
      await core.close();
    }
  }, 120_000);
});
