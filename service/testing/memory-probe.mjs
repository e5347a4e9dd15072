// Preloaded into a service child (`node --import bench/lib/memory-probe.mjs`): prints its memory every
// MEMORY_PROBE_MS ms (default 2,000) and, on SIGUSR2, after a full collection (with --expose-gc).
const line = (tag) => {
  const m = process.memoryUsage();
  const mb = (n) => Math.round(n / 1048576);
  process.stderr.write(`memory-probe ${tag} rss=${mb(m.rss)} heapUsed=${mb(m.heapUsed)} heapTotal=${mb(m.heapTotal)} external=${mb(m.external)} arrayBuffers=${mb(m.arrayBuffers)}\n`);
};
const every = Number(process.env.MEMORY_PROBE_MS ?? 2000);
if (every > 0) setInterval(() => line('tick'), every).unref();
process.on('SIGUSR2', () => {
  if (typeof globalThis.gc === 'function') globalThis.gc();
  line('gc');
});
