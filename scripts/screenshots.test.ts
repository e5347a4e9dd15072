// The pictures in the docs are the app's own, taken by `npm run screenshots` (scripts/screenshots.mjs):
// each one a doc shows is listed with the spec that takes it, and no picture sits in docs/screenshots/
// that no doc shows or no spec takes (such a picture goes stale without anyone noticing).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const shots = path.join(root, 'docs/screenshots');

async function markdownFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', 'test-results', '.git'].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await markdownFiles(full)));
    else if (entry.name.endsWith('.md')) out.push(full);
  }
  return out;
}

describe('docs/screenshots', () => {
  it('holds exactly the pictures the docs show, each listed with a spec that takes it', async () => {
    const list = JSON.parse(await readFile(path.join(shots, 'screenshots.json'), 'utf8')) as Record<string, string>;
    const shown = new Set<string>();
    for (const file of await markdownFiles(root)) {
      for (const m of (await readFile(file, 'utf8')).matchAll(/screenshots\/([\w.-]+\.png)/g)) shown.add(m[1]!);
    }
    const files = (await readdir(shots)).filter((f) => f.endsWith('.png'));
    expect([...shown].sort()).toEqual(Object.keys(list).sort());
    expect(files.sort()).toEqual(Object.keys(list).sort());
    for (const [picture, spec] of Object.entries(list)) {
      const source = await readFile(path.join(root, spec), 'utf8');
      expect(source, `${spec} takes ${picture}`).toContain(picture.replace(/\.png$/, ''));
    }
  });
});
