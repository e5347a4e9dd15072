/**
 * The long run of the crash suite: kill -9 the local service at random points of a tus batch
 * (service/attack/crash-round.ts), then kill -9 the app's core at random points of a run, against a
 * service that outlives it and against the embedded one (electron/core/crash/core-crash-round.ts).
 * After each kill the service or core restarts on the same data dir and every promise is checked (clear
 * end states, nothing acknowledged lost, each file processed once or resumable). Prints one line per kill
 * and a summary; exits 1 when any round broke a promise.
 *
 *   npm run bench:crash                                       # 12 service kills, 12 core kills
 *   BENCH_SERVICE_KILLS=20 BENCH_CORE_KILLS=10 npm run bench:crash
 */
import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { coreCrashRound } from '../electron/core/crash/core-crash-round';
import { crashRound } from '../service/attack/crash-round';
import { startLocalService } from '../service/index';

const serviceKills = Number(process.env.BENCH_SERVICE_KILLS ?? 12);
const coreKills = Number(process.env.BENCH_CORE_KILLS ?? 12);

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'al-crash-loop-'));
  const problems: string[] = [];
  const summary = { serviceKills: 0, assemblies: 0, completed: 0, crashed: 0, files: 0, acknowledged: 0, resubmitted: 0, coreKills: 0, coreCompleted: 0, coreCrashed: 0 };
  try {
    for (let i = 0; i < serviceKills; i++) {
      // Most batches are done after ~1.5 s here: kill inside that window.
      const killAfterMs = randomInt(20, 1600);
      const r = await crashRound({ dir: await mkdtemp(path.join(root, 'svc-')), assemblies: 4, filesPerAssembly: 3, killAfterMs });
      summary.serviceKills++;
      summary.assemblies += r.assemblies;
      summary.completed += r.completedAssemblies;
      summary.crashed += r.crashedAssemblies;
      summary.files += r.files;
      summary.acknowledged += r.acknowledgedFiles;
      summary.resubmitted += r.resubmittedFiles;
      problems.push(...r.problems.map((p) => `service kill ${i + 1}: ${p}`));
      console.log(`service kill ${i + 1}/${serviceKills} at ${killAfterMs} ms: ${r.acknowledgedFiles}/${r.files} files acknowledged, ${r.completedAssemblies} completed, ${r.crashedAssemblies} crashed, ${r.resubmittedFiles} resent — ${r.problems.length ? `${r.problems.length} PROBLEMS` : 'ok'}`);
    }
    const remote = await startLocalService({ dataDir: path.join(root, 'remote-service'), port: 0 });
    try {
      for (let i = 0; i < coreKills; i++) {
        // Two in three against a service that survives (resume), one in three against the embedded one.
        const embedded = i % 3 === 2;
        const killAt = randomInt(2, 98) / 100;
        const r = await coreCrashRound({ dir: await mkdtemp(path.join(root, 'core-')), files: 4, killAt, ...(embedded ? {} : { remote: { url: remote.url, authKey: remote.authKey, authSecret: remote.authSecret } }) });
        summary.coreKills++;
        if (r.state === 'ASSEMBLY_COMPLETED') summary.coreCompleted++;
        else summary.coreCrashed++;
        problems.push(...r.problems.map((p) => `core kill ${i + 1} (${r.mode}): ${p}`));
        console.log(`core kill ${i + 1}/${coreKills} (${r.mode}) at ${Math.round(killAt * 100)} % (${r.killedAtBytes}/${r.totalBytes} bytes confirmed): run ended ${r.state} — ${r.problems.length ? `${r.problems.length} PROBLEMS` : 'ok'}`);
      }
    } finally {
      await remote.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  console.log('\nsummary');
  console.log(`  service kills: ${summary.serviceKills}; Assemblies ${summary.assemblies} (${summary.completed} completed, ${summary.crashed} ended ASSEMBLY_CRASHED or another code); files ${summary.files}, ${summary.acknowledged} acknowledged before the kill, ${summary.resubmitted} resent after it`);
  console.log(`  core kills: ${summary.coreKills}; runs completed ${summary.coreCompleted}, ended otherwise ${summary.coreCrashed}`);
  console.log(`  broken promises: ${problems.length}`);
  for (const p of problems.slice(0, 20)) console.log(`  - ${p}`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}

void main();
