import path from 'node:path';
import { fmt } from './bench-kit';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function of a CDP CPU profile, the page's own bundle (`/assets/`) apart from the browser's work. */
export function summarizeProfile(profile: CpuProfile, top = 15): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let ours = 0;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    if (!node) return;
    const f = node.callFrame;
    const key = f.url ? `${f.functionName || '(anonymous)'} ${path.basename(f.url)}:${String(f.lineNumber + 1)}` : f.functionName;
    if (f.url.includes('/assets/')) ours += dt;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  const first = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [`profile: ${fmt(total / 1000, 1)} s sampled, the app's own JavaScript ${fmt(ours / 1000, 1)} s; top self time:`, ...first.map(([k, ms]) => `  ${fmt(ms, 0).padStart(6)} ms  ${k}`)];
}
