import { mkdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { writePdf, writeVideo } from '../../service/robots/test-files';
import { startS3Server, type S3Server } from '../../service/testing/s3-server';
import { expect, test } from '../fixtures/app';
import { useCustomSteps } from '../fixtures/steps-editor';
import { startAndOpenAssembly } from '../fixtures/transfers';

// A Template as real accounts write them, run from the app on the local service: a video imported over HTTP
// (a test server on loopback) cut into HLS renditions, a thumbnail of each page of the uploaded PDF, all
// stored to an S3 server (s3rver on loopback) at the vendor's `${file.meta.relative_path}/${file.name}`.
let s3: S3Server;
let web: Server;
let webUrl: string;

test.beforeEach(async ({ workDir }) => {
  // A keyframe every second: the copied H.264 is cut into 1 s segments.
  const clip = await writeVideo(path.join(workDir, 'clip.mp4'), 3, ['-g', '10']);
  const bytes = await readFile(clip);
  web = createServer((req, res) => {
    if (req.url === '/media/clip.mp4') res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length }).end(bytes);
    else res.writeHead(404).end('no');
  });
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  webUrl = `http://127.0.0.1:${(web.address() as { port: number }).port}`;
  s3 = await startS3Server(['media']);
});
test.afterEach(async () => {
  await Promise.all([new Promise((r) => web.close(r)), s3.stop()]);
});

const s3Client = () => new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: s3.key, secretAccessKey: s3.secret } });

test('a Template imports a video over HTTP, makes PDF page thumbnails and HLS renditions, and stores them to S3: the playlist in the bucket plays', async ({ ui, workDir }) => {
  await mkdir(path.join(workDir, 'docs'));
  await writePdf(path.join(workDir, 'docs', 'brochure.pdf'), 2);
  const steps = {
    ':original': { robot: '/upload/handle' },
    imported: { robot: '/http/import', url: `${webUrl}/media/clip.mp4` },
    pages: { robot: '/document/thumbs', use: ':original', width: 300, height: 300, format: 'png' },
    hls: { robot: '/video/adaptive', use: { steps: ['imported'], bundle_steps: true }, technique: 'hls', segment_duration: 1 },
    stored: { robot: '/s3/store', use: ['pages', 'hls'], host: s3.endpoint, bucket: 'media', key: s3.key, secret: s3.secret, path: 'site/${file.meta.relative_path}/${file.name}' },
  };
  await ui.getByLabel('Choose folder').setInputFiles(path.join(workDir, 'docs'));
  await expect(ui.getByTestId('file-row')).toHaveCount(1);
  await useCustomSteps(ui, steps);
  await startAndOpenAssembly(ui, 'Start · 1 file');
  await expect(ui.getByTestId('assembly-state')).toHaveText('Completed', { timeout: 120_000 });

  // In the bucket: the preview, the master playlist at the top, each rendition's playlist and segments beside it.
  const client = s3Client();
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'media', Prefix: 'site/' }));
    const keys = (listed.Contents ?? []).map((o) => o.Key ?? '');
    expect(keys).toContain('site/playlist.m3u8');
    // One thumbnail per page of the 2-page PDF.
    expect(keys.filter((k) => /^site\/[^/]+\.png$/.test(k))).toHaveLength(2);
    expect(keys.filter((k) => /^site\/stream_0\/segment_\d{5}\.ts$/.test(k)).length).toBeGreaterThanOrEqual(2);
    expect(keys.some((k) => k.includes('//'))).toBe(false);
    // Every playlist line names a file that is in the bucket beside it: a player can follow it.
    const text = async (key: string) => (await (await client.send(new GetObjectCommand({ Bucket: 'media', Key: key }))).Body!.transformToString());
    const master = await text('site/playlist.m3u8');
    const media = master.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(media.length).toBeGreaterThan(0);
    for (const entry of media) {
      expect(keys).toContain(`site/${entry}`);
      const folder = path.posix.dirname(`site/${entry}`);
      for (const segment of (await text(`site/${entry}`)).split('\n').filter((l) => l !== '' && !l.startsWith('#'))) expect(keys).toContain(`${folder}/${segment}`);
    }
  } finally {
    client.destroy();
  }
});
