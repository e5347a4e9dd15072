// A real S3-compatible server (s3rver) on 127.0.0.1, an ephemeral port, with its objects in a temp folder,
// for the tests of the S3 family of robots. Its one key pair is S3RVER / S3RVER (any other is refused).
// Not imported by production code.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver ships no types; the little used here is typed below.
// @ts-expect-error -- no declaration file
import S3rver from 's3rver';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}

export interface S3Server {
  /** `http://127.0.0.1:<port>`: the `host` a step names. */
  endpoint: string;
  key: string;
  secret: string;
  stop(): Promise<void>;
}

export async function startS3Server(buckets: string[]): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'al-s3rver-'));
  const server = new (S3rver as new (o: Record<string, unknown>) => S3rverInstance)({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    // Path-style only: a virtual-host name would need DNS for <bucket>.127.0.0.1.
    vhostBuckets: false,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    key: 'S3RVER',
    secret: 'S3RVER',
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
