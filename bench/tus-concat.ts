/**
 * tus concatenation at size (issue 25): one file (1 GiB by default) sent by tus-js-client with
 * `parallelUploads` (4 parts by default) into an `/upload/handle`-only Assembly on the local service, in
 * its own process, against the same file sent as one stream in the same run. Each Assembly must complete
 * with the file's md5 and size (the run fails otherwise). Prints both times, the ratio parallel / single
 * (no goal on loopback: parts pay for the join, in which the service hashes the file once in order;
 * parts are for long fat links, where one stream cannot fill the pipe — see docs/local-service.md "tus"),
 * and the CPU seconds the service used for each.
 *
 *   npm run bench:tus-concat
 *   BENCH_SIZE_MB=256 BENCH_PARTS=8 npm run bench:tus-concat
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Upload } from 'tus-js-client';
import { writeNumberedFile } from './lib/file-tree';
import { cpuSeconds, fmt, MiB, runBench, seconds, withBenchService, type BenchService } from './lib/bench-kit';

const sizeBytes = Number(process.env.BENCH_SIZE_MB ?? 1024) * MiB;
const parts = Math.max(2, Number(process.env.BENCH_PARTS ?? 4));

const writeFile = (file: string): Promise<string> => writeNumberedFile(file, sizeBytes);

async function createAssembly(service: BenchService): Promise<Record<string, unknown>> {
  const form = new FormData();
  form.set('params', JSON.stringify({ auth: { key: service.authKey }, steps: { ':original': { robot: '/upload/handle' } } }));
  form.set('tus_num_expected_upload_files', '1');
  const res = await fetch(`${service.url}/assemblies`, { method: 'POST', body: form });
  return (await res.json()) as Record<string, unknown>;
}

async function completed(url: string): Promise<Record<string, unknown>> {
  for (;;) {
    const s = (await (await fetch(url)).json()) as Record<string, unknown>;
    if (s.ok !== 'ASSEMBLY_UPLOADING' && s.ok !== 'ASSEMBLY_EXECUTING') return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Seconds until the Assembly completed, and the service's CPU seconds for it. */
async function send(service: BenchService, file: string, md5: string, parallel: number): Promise<{ s: number; cpu: number }> {
  const assembly = await createAssembly(service);
  const assemblyUrl = String(assembly.assembly_ssl_url);
  const cpu0 = cpuSeconds(service.child.pid);
  const t0 = process.hrtime.bigint();
  await new Promise((resolve, reject) => {
    new Upload(createReadStream(file), {
      endpoint: String(assembly.tus_url),
      ...(parallel > 1 ? { parallelUploads: parallel, metadataForPartialUploads: { assembly_url: assemblyUrl } } : { uploadSize: sizeBytes, chunkSize: 64 * MiB }),
      metadata: { assembly_url: assemblyUrl, filename: path.basename(file) },
      retryDelays: [],
      onError: reject,
      onSuccess: resolve,
    }).start();
  });
  const done = await completed(assemblyUrl);
  const s = seconds(t0);
  const upload = (done.uploads as Record<string, unknown>[] | undefined)?.[0];
  if (done.ok !== 'ASSEMBLY_COMPLETED' || upload?.md5hash !== md5 || upload.size !== sizeBytes) {
    throw new Error(`the Assembly did not get the file (${String(done.ok ?? done.error)}, md5 ${String(upload?.md5hash)} size ${String(upload?.size)})`);
  }
  return { s, cpu: cpuSeconds(service.child.pid) - cpu0 };
}

runBench(async () => {
  await withBenchService('bench-tus-concat-', async (dir, service) => {
    const file = path.join(dir, 'big.bin');
    const md5 = await writeFile(file);
    const single = await send(service, file, md5, 1);
    const parallel = await send(service, file, md5, parts);
    const mib = sizeBytes / MiB;
    console.log(`file: ${mib} MiB, ${parts} parts; both Assemblies completed with the file's md5 and size`);
    console.log(`one stream:     ${fmt(single.s)} s (${fmt(mib / single.s)} MiB/s), service CPU ${fmt(single.cpu)} s`);
    console.log(`${parts} parallel parts: ${fmt(parallel.s)} s (${fmt(mib / parallel.s)} MiB/s), service CPU ${fmt(parallel.cpu)} s`);
    console.log(`ratio parallel / one stream (time): ${fmt(parallel.s / single.s, 2)} (no goal on loopback)`);
  });
});
