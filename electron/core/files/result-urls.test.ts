import { describe, expect, it } from 'vitest';
import { createDownloadLedger } from './download-ledger';
import { isResultUrlOfRun, resultFileOfRun } from './result-urls';

const status = {
  ok: 'ASSEMBLY_COMPLETED',
  uploads: [{ id: 'u1', ssl_url: 'http://127.0.0.1:4000/files/a1/u1/a.jpg' }],
  results: {
    resized: [{ id: 'r1', ssl_url: 'https://cdn.example.net/r1/a.jpg', url: 'http://cdn.example.net/r1/a.jpg' }],
    encoded: [{ id: 'v1', mime: 'video/mp4', meta: { duration: 12.5 }, ssl_url: 'https://cdn.example.net/v1/a.mp4' }],
  },
} as never;

describe('isResultUrlOfRun', () => {
  it("accepts the URLs the run's status record gave, on the service or on a CDN host", () => {
    expect(isResultUrlOfRun(status, 'http://127.0.0.1:4000/files/a1/u1/a.jpg')).toBe(true);
    expect(isResultUrlOfRun(status, 'https://cdn.example.net/r1/a.jpg')).toBe(true);
    expect(isResultUrlOfRun(status, 'http://cdn.example.net/r1/a.jpg')).toBe(true);
  });
  it('refuses any other URL, however close', () => {
    for (const url of ['https://cdn.example.net/r1/b.jpg', 'https://cdn.example.net/r1/a.jpg/../../secret', 'http://127.0.0.1:4000/assemblies', 'file:///etc/passwd', 'nonsense']) {
      expect(isResultUrlOfRun(status, url), url).toBe(false);
    }
    expect(isResultUrlOfRun(null, 'https://cdn.example.net/r1/a.jpg')).toBe(false);
  });
});

describe('resultFileOfRun', () => {
  it('gives the record of a result URL (its type and length choose the preview), null for any other URL', () => {
    expect(resultFileOfRun(status, 'https://cdn.example.net/v1/a.mp4')).toMatchObject({ id: 'v1', mime: 'video/mp4', meta: { duration: 12.5 } });
    expect(resultFileOfRun(status, 'https://cdn.example.net/v1/b.mp4')).toBeNull();
  });
});

describe('download ledger', () => {
  it('knows exactly the files core wrote, however the path is spelled', () => {
    const ledger = createDownloadLedger(2);
    ledger.record('/home/me/Downloads/a.jpg');
    expect(ledger.has('/home/me/Downloads/./a.jpg')).toBe(true);
    expect(ledger.has('/home/me/Downloads/b.jpg')).toBe(false);
    expect(ledger.has('a.jpg')).toBe(false);
    ledger.record('/d/1');
    ledger.record('/d/2');
    expect(ledger.has('/home/me/Downloads/a.jpg')).toBe(false);
  });
});
