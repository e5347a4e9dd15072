// The closing lines of `npm test` are all CI keeps of a run: they must name what failed and, for an
// assertion on an object, the keys that differed (Vitest's JSON report has only "{ a: 1, …(29) }").
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.resolve(import.meta.dirname, 'summarize-tests.mjs');
let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function summarize(vitest: object, playwright: object, log?: string): Promise<{ code: number; out: string }> {
  dir = await mkdtemp(path.join(tmpdir(), 'summarize-'));
  await writeFile(path.join(dir, 'v.json'), JSON.stringify(vitest));
  await writeFile(path.join(dir, 'p.json'), JSON.stringify(playwright));
  const args = [script, path.join(dir, 'v.json'), path.join(dir, 'p.json')];
  if (log !== undefined) {
    await writeFile(path.join(dir, 'v.log'), log);
    args.push(path.join(dir, 'v.log'));
  }
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: dir });
    return { code: 0, out: stdout };
  } catch (e) {
    const failed = e as { code: number; stdout: string };
    return { code: failed.code, out: failed.stdout };
  }
}

const passingPlaywright = { stats: { expected: 2, unexpected: 0, skipped: 0 }, suites: [] };

describe('summarize-tests', () => {
  it('a green run is one line', async () => {
    const { code, out } = await summarize({ numPassedTests: 3, numFailedTests: 0, testResults: [] }, passingPlaywright);
    expect(code).toBe(0);
    expect(out.trim()).toBe('tests: 5 passed, 0 failed, 0 skipped');
  });

  it('a failed deep-equal names its test and quotes the lines that differed from the Vitest log', async () => {
    const vitest = {
      numPassedTests: 1,
      numFailedTests: 1,
      testResults: [{ name: path.join(tmpdir(), 'x.test.ts'), status: 'failed', assertionResults: [{ status: 'failed', fullName: 'meta is kept', failureMessages: ['AssertionError: expected { a: 1, …(2) } to deeply equal { a: 1, …(2) }\n    at x.test.ts:2'] }] }],
    };
    const log = [
      ' FAIL  node  x.test.ts > meta is kept',
      'AssertionError: expected { a: 1, …(2) } to deeply equal { a: 1, …(2) }',
      '',
      '- Expected',
      '+ Received',
      '',
      '  {',
      '    "a": 1,',
      '-   "date_file_created": "2026/11/28 14:00:02 GMT",',
      '+   "date_file_created": "2026/11/28 14:00:01 GMT",',
      '  }',
    ].join('\n');
    const { code, out } = await summarize(vitest, passingPlaywright, log);
    expect(code).toBe(1);
    expect(out).toContain('x.test.ts › meta is kept: AssertionError: expected { a: 1, …(2) }');
    expect(out).toContain('FAIL  node  x.test.ts > meta is kept\n    -   "date_file_created": "2026/11/28 14:00:02 GMT",\n    +   "date_file_created": "2026/11/28 14:00:01 GMT",');
    expect(out).not.toContain('"a": 1');
    expect(out.trim().split('\n').at(-1)).toBe('tests: 3 passed, 1 failed, 0 skipped');
    // A toBe on strings prints its two values instead of a diff.
    const strings = await summarize(vitest, passingPlaywright, ' FAIL  node  x.test.ts > meta is kept\nAssertionError: expected \'a\' to be \'b\'\n\nExpected: "b"\nReceived: "a"\n');
    expect(strings.out).toContain('    Expected: "b"\n    Received: "a"');
  });

  it('a runner that left no report counts as a failure', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'summarize-'));
    const none = path.join(dir, 'none.json');
    const missing = await promisify(execFile)(process.execPath, [script, none, none]).then(() => ({ code: 0, stdout: '' }), (e: { code: number; stdout: string }) => e);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('tests: 0 passed, 2 failed, 0 skipped');
  });
});
