// A draft saved by one session and picked again by the next: real folders, the real store on disk.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TRANSFER_SETTINGS } from '../../../shared/ipc/transfer-models';
import { createFileHandleRegistry, type FileHandleRegistry } from '../files/file-handles';
import { createDraft, VANISHED_REASON, type Draft } from './draft';
import { openDraftStore, type DraftStore } from './draft-store';

let dir = '';
let dataDir = '';
const open: { draft: Draft; store: DraftStore }[] = [];

/** One session: a registry, the store on the data dir, and a draft restored from it. */
function session(): { draft: Draft; store: DraftStore; files: FileHandleRegistry } {
  const files = createFileHandleRegistry();
  const store = openDraftStore(dataDir, { delayMs: 5 });
  const draft = createDraft({ files, emit: () => undefined, getSettings: () => DEFAULT_TRANSFER_SETTINGS, store });
  draft.restore(store.saved.files);
  open.push({ draft, store });
  return { draft, store, files };
}

/** Ends a session as core.close() does: walks stopped, the store written. */
async function end(s: { draft: Draft; store: DraftStore }): Promise<void> {
  await s.draft.idle();
  s.draft.close();
  await s.store.flush();
}

const shown = (draft: Draft) => draft.rows(0, 1_000).rows.map((r) => r.relativePath);

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-draft-restore-'));
  dataDir = path.join(dir, 'data');
  await mkdir(dataDir);
  for (const folder of ['shoot/day-1', 'shoot/day-2', 'scans']) await mkdir(path.join(dir, folder), { recursive: true });
  await Promise.all(
    ['shoot/day-1/a.jpg', 'shoot/day-1/b.jpg', 'shoot/day-2/c.jpg', 'scans/s1.png', 'scans/s2.png', 'loose.txt'].map((f) => writeFile(path.join(dir, f), `bytes of ${f}`)),
  );
});
afterEach(async () => {
  for (const s of open.splice(0)) {
    s.draft.close();
    await s.store.flush(); // a write still pending would land in the folder being removed (ENOTEMPTY)
  }
  await rm(dir, { recursive: true, force: true });
});

describe('a draft across a restart', () => {
  it('picks the same roots again, without the files the user removed', async () => {
    const first = session();
    first.draft.add([first.files.register(path.join(dir, 'shoot')), first.files.register(path.join(dir, 'loose.txt'))]);
    await first.draft.idle();
    const b = first.draft.rows(0, 100).rows.find((r) => r.relativePath === 'shoot/day-1/b.jpg');
    first.draft.remove([b?.id ?? '']);
    expect(shown(first.draft)).toEqual(['shoot/day-1/a.jpg', 'shoot/day-2/c.jpg', 'loose.txt']);
    await end(first);

    const second = session();
    await second.draft.idle();
    expect(shown(second.draft)).toEqual(['shoot/day-1/a.jpg', 'shoot/day-2/c.jpg', 'loose.txt']);
    expect(second.draft.summary()).toMatchObject({ files: 3, unreadable: 0, scanning: false });
    expect(second.draft.label()).toBe('shoot + 1 more');
    // The handles are new ones, and they work.
    const row = second.draft.rows(0, 1).rows[0];
    expect(second.files.resolve(row?.handle ?? '', 'shoot/day-1/a.jpg')).toEqual({ ok: true, value: path.join(dir, 'shoot/day-1/a.jpg') });
  });

  it('sees files added to a root meanwhile, and lists a root that vanished as skipped with the reason', async () => {
    const first = session();
    first.draft.add([first.files.register(path.join(dir, 'shoot')), first.files.register(path.join(dir, 'scans'))]);
    await end(first);
    await rm(path.join(dir, 'scans'), { recursive: true });
    await writeFile(path.join(dir, 'shoot/day-2/d.jpg'), 'new');

    const second = session();
    await second.draft.idle();
    expect(shown(second.draft)).toEqual(['shoot/day-1/a.jpg', 'shoot/day-1/b.jpg', 'shoot/day-2/c.jpg', 'shoot/day-2/d.jpg']);
    expect(second.draft.skipped(0, 10).items).toEqual([{ relativePath: 'scans', reason: VANISHED_REASON }]);
    expect(second.draft.rootPaths()).toEqual([path.join(dir, 'shoot')]);
    expect(second.draft.label()).toBe('shoot');
    await end(second);

    // Said once: the next start no longer knows the vanished root.
    const third = session();
    await third.draft.idle();
    expect(third.draft.summary().unreadable).toBe(0);
    expect(third.draft.summary().files).toBe(4);
  });

  it('a root picked again brings back the files removed from it', async () => {
    const first = session();
    const shoot = first.files.register(path.join(dir, 'shoot'));
    first.draft.add([shoot]);
    await first.draft.idle();
    first.draft.remove([first.draft.rows(0, 1).rows[0]?.id ?? '']);
    first.draft.add([shoot]);
    await end(first);

    const second = session();
    await second.draft.idle();
    expect(second.draft.summary().files).toBe(3);
  });

  it('keeps the names the browser host shortened on disk, and the items the page could not read', async () => {
    await writeFile(path.join(dir, 'scans/s~1.png'), 'short name on disk');
    const first = session();
    const scans = first.files.register(path.join(dir, 'scans'));
    first.files.alias(scans, 'scans/s~1.png', 'scans/a scan with a name too long for the disk.png');
    first.files.noteUnreadable(scans, 'scans/locked.png', 'The page could not read this file.');
    first.draft.add([scans]);
    await end(first);

    const second = session();
    await second.draft.idle();
    expect(shown(second.draft)).toContain('scans/a scan with a name too long for the disk.png');
    expect(second.draft.skipped(0, 10).items).toEqual([{ relativePath: 'scans/locked.png', reason: 'The page could not read this file.' }]);
  });

  it('Clear and Start leave nothing to pick again; the steps choice stays', async () => {
    const choice = { presetId: 'template', customText: '{}', templateId: 'builtin/resize@1', templateFields: { width: '640' } };
    const first = session();
    first.draft.add([first.files.register(path.join(dir, 'scans'))]);
    first.draft.saveChoice(choice);
    await first.draft.idle();
    expect(first.draft.take().ok).toBe(true);
    await end(first);

    const second = session();
    expect(second.draft.summary()).toMatchObject({ files: 0, scanning: false });
    expect(second.draft.choice()).toEqual(choice);
    second.draft.add([second.files.register(path.join(dir, 'shoot'))]);
    second.draft.clear();
    await end(second);

    const third = session();
    expect(third.draft.summary()).toMatchObject({ files: 0, scanning: false });
    expect(third.draft.rootPaths()).toEqual([]);
  });
});
