// The pure rules of the storage robots: where an S3-family step connects, that a credential's keys never
// follow a step to another host, and how import requests are read (URLs, headers, names, ranges).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dispositionName, importHeaders, importUrls } from './http-import';
import { byteRanges, importName } from './imported-file';
import { storePath } from '../transloadit-store';
import { objectKey } from './s3-store';
import { endpointOf, s3ProviderOf, s3Target, type S3Target } from './s3-target';
import { collapseSlashes } from './store-path';

const saved = { key: 'AKIA-SAVED', secret: 'saved-secret', bucket: 'media', host: 'https://s3.saved.example', bucket_region: 'eu-west-1' };
const lookup = (name: string) => (name === 'media-bucket' ? { name, type: 's3', content: saved } : null);

describe('s3Target', () => {
  it('reads each provider with its own parameter names and endpoint', () => {
    const t = (robot: string, p: Record<string, unknown>) => s3Target(robot, p, () => null) as S3Target;
    expect(t('/s3/store', { bucket: 'b-1', key: 'k', secret: 's' })).toMatchObject({ endpoint: undefined, region: 'us-east-1', pathStyle: false, urlPrefix: 'https://b-1.s3.amazonaws.com/' });
    expect(t('/wasabi/import', { bucket: 'b-1', key: 'k', secret: 's', bucket_region: 'eu-central-1' })).toMatchObject({ endpoint: 'http://s3.eu-central-1.wasabisys.com', region: 'eu-central-1' });
    expect(t('/digitalocean/store', { space: 'my-space', region: 'fra1', key: 'k', secret: 's' })).toMatchObject({ bucket: 'my-space', endpoint: 'http://fra1.digitaloceanspaces.com' });
    expect(t('/minio/store', { bucket: 'b-1', key: 'k', secret: 's', host: 'https://minio.lan:9000' })).toMatchObject({ endpoint: 'https://minio.lan:9000', pathStyle: true, urlPrefix: 'https://minio.lan:9000/b-1/' });
    expect(t('/backblaze/store', { bucket: 'b-1', app_key_id: 'id', app_key: 'key', bucket_region: 'us-west-004' })).toMatchObject({ accessKeyId: 'id', endpoint: 'http://s3.us-west-004.backblazeb2.com' });
    expect(s3Target('/cloudflare/store', { bucket: 'b-1', key: 'k', secret: 's' }, () => null)).toContain('give "host"');
    expect(s3Target('/s3/store', { bucket: 'Bad_Bucket', key: 'k', secret: 's' }, () => null)).toContain('not a valid bucket name');
    expect(s3Target('/s3/store', { bucket: 'b-1' }, () => null)).toContain('missing: key, secret');
    expect(s3ProviderOf('/azure/store')).toBeNull();
  });

  it('takes the endpoint a host names, and refuses paths, credentials in it and other schemes', () => {
    expect(endpointOf('s3://store.example.com')).toEqual({ endpoint: 'https://store.example.com' });
    expect(endpointOf('127.0.0.1:9000')).toEqual({ endpoint: 'http://127.0.0.1:9000' });
    for (const bad of ['https://x.example/path', 'https://user:pw@x.example', 'ftp://x.example', 'http://']) expect(endpointOf(bad), bad).toHaveProperty('problem');
  });

  it('never sends saved keys anywhere but the saved host, whatever the step sets (property)', () => {
    const destination = fc.record(
      {
        host: fc.oneof(fc.constant(saved.host), fc.webUrl(), fc.domain(), fc.constantFrom('http://127.0.0.1:9', 'HTTPS://S3.SAVED.EXAMPLE', 'https://s3.saved.example.', 'https://s3.saved.example:443', 's3://s3.saved.example')),
        no_vhost: fc.boolean(),
        bucket_region: fc.oneof(fc.constant(saved.bucket_region), fc.constantFrom('us-east-1', 'eu-west-1 ', '')),
        bucket: fc.constantFrom('media', 'other-bucket'),
        key: fc.constantFrom('AKIA-OTHER', saved.key),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(destination, (step) => {
        const t = s3Target('/s3/store', { credentials: 'media-bucket', ...step }, lookup);
        if (typeof t === 'string') return;
        // Whatever the step said, the keys go to the saved endpoint with the saved region.
        expect(t.endpoint).toBe('https://s3.saved.example');
        expect(t.region).toBe('eu-west-1');
        expect([t.accessKeyId, t.secretAccessKey]).toEqual([saved.key, saved.secret]);
      }),
    );
  });
});

describe('import requests', () => {
  it('splits URLs on the delimiter and reads headers in the three spellings, dropping injected lines', () => {
    expect(importUrls('https://a/x.jpg|https://b/y.jpg', undefined)).toEqual(['https://a/x.jpg', 'https://b/y.jpg']);
    expect(importUrls('https://a/x.jpg;https://b/y.jpg', ';')).toHaveLength(2);
    expect(importHeaders(['Authorization: Bearer t', { 'X-One': 1 }])).toEqual({ Authorization: 'Bearer t', 'X-One': '1' });
    expect(importHeaders('A: 1\nB: 2')).toEqual({ A: '1', B: '2' });
    expect(importHeaders({ Good: 'yes', 'Bad Name': 'x', Smuggle: 'a\r\nHost: evil' })).toEqual({ Good: 'yes' });
  });

  it('names a file by Content-Disposition (filename* first), never with a folder in it', () => {
    expect(dispositionName(`attachment; filename="a.txt"; filename*=UTF-8''%C3%9Cber%20(1).txt`)).toBe('Über (1).txt');
    expect(dispositionName('attachment; filename="quote \\" inside.txt"')).toBe('quote " inside.txt');
    expect(dispositionName('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(dispositionName('attachment; filename=C:\\Windows\\win.ini')).toBe('win.ini');
    expect(dispositionName(undefined)).toBeNull();
    expect(importName(['first.jpg'], 1, 'own.jpg')).toBe('own.jpg');
    expect(importName('all.jpg', 3, 'own.jpg')).toBe('all.jpg');
  });

  it('reads byte ranges, and refuses anything else', () => {
    expect(byteRanges(['0-99', '200-'])).toEqual(['bytes=0-99', 'bytes=200-']);
    expect(byteRanges('-500')).toEqual(['bytes=-500']);
    for (const bad of ['a-b', '1,2', 5, ['0-1', 'x']]) expect(byteRanges(bad), JSON.stringify(bad)).toBeNull();
  });
});

describe('store paths', () => {
  it('every store drops the empty folders of a path and keeps its named ones in order (any paths)', () => {
    const segment = fc.oneof(fc.constant(''), fc.stringMatching(/^[A-Za-z0-9 ._()-]{1,12}$/));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 8 }).filter((s) => s.some((x) => x !== '')), fc.boolean(), (segments, leading) => {
        const path = `${leading ? '/' : ''}${segments.join('/')}`;
        const absolute = path.startsWith('/');
        const named = segments.filter((s) => s !== '');
        for (const stored of [collapseSlashes(path), objectKey(path), storePath({ path }, 'x')]) {
          expect(stored).not.toContain('//');
          expect(stored.split('/').filter((s) => s !== '')).toEqual(named);
        }
        // S3 keys and asset paths are relative to their bucket or workspace; FTP and SFTP keep an absolute path absolute.
        expect([objectKey(path).startsWith('/'), storePath({ path }, 'x').startsWith('/'), collapseSlashes(path).startsWith('/')]).toEqual([false, false, absolute]);
      }),
    );
    expect([objectKey('/hls//playlist.m3u8'), storePath({ path: 'hls//stream_0/a.ts' }, 'x'), collapseSlashes('/srv//hls/a.ts')]).toEqual(['hls/playlist.m3u8', 'hls/stream_0/a.ts', '/srv/hls/a.ts']);
  });
});
