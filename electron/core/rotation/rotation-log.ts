import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { rotationSchema, type Rotation } from '../../../shared/ipc/workspace-models';
import { ensurePrivateDir, restrictIfPresent, writePrivateFile } from '../vault/private-files';

const fileSchema = z.object({ version: z.literal(1), rotations: z.array(rotationSchema) });

export interface RotationLog {
  list(): Rotation[];
  get(id: string): Rotation | null;
  put(rotation: Rotation): Promise<void>;
}

/** Every rotation the app ran, newest first, as JSON in the data dir (written atomically). No secrets. */
export async function openRotationLog(dataDir: string): Promise<RotationLog> {
  const file = path.join(dataDir, 'rotations.json');
  restrictIfPresent(file);
  let rotations: Rotation[] = [];
  try {
    const parsed = fileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (parsed.success) rotations = parsed.data.rotations;
  } catch {
    // no log yet
  }
  return {
    list: () => rotations.map((r) => structuredClone(r)),
    get: (id) => structuredClone(rotations.find((r) => r.id === id) ?? null),
    async put(rotation) {
      rotations = [rotation, ...rotations.filter((r) => r.id !== rotation.id)].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
      ensurePrivateDir(dataDir);
      await writePrivateFile(file, JSON.stringify({ version: 1, rotations }, null, 2));
    },
  };
}
