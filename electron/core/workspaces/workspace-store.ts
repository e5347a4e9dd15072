import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import { ensurePrivateDir, restrictIfPresent, writePrivateFile } from '../vault/private-files';

export const LOCAL_WORKSPACE_ID = 'local';
export const LOCAL_WORKSPACE_NAME = 'Local (this computer)';

/** What is persisted per workspace. Never a secret: those live in the vault under the workspace id. */
export const storedWorkspaceSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  kind: z.enum(['local', 'remote']),
  endpoint: z.string(),
  authKey: z.string(),
  signatureAlgo: z.enum(['sha1', 'sha256', 'sha384']).optional(),
  /** Fields added with remote workspaces; files written before them read with the defaults. */
  slug: z.string().default(''),
  authMode: z.enum(['signature', 'bearer', 'browser']).default('signature'),
  tokenScopes: z.array(z.string()).nullable().default(null),
  /** Browser sign-in with a private key: the client id it signs in as and the vault's key (by kid). */
  clientKey: z.object({ clientId: z.string().min(1), kid: z.string().min(1) }).optional(),
  /** Local only: the user switched Local to this key (kept across restarts while it stays active). */
  keyChosen: z.boolean().optional(),
  /** A company deployment's CA (PEM), trusted for this workspace's requests only (net/transport.ts). */
  caPem: z.string().nullable().optional(),
});
export type StoredWorkspace = z.output<typeof storedWorkspaceSchema>;

const fileSchema = z.object({
  version: z.literal(1),
  activeWorkspaceId: z.string(),
  workspaces: z.array(storedWorkspaceSchema),
});
type WorkspaceFile = z.infer<typeof fileSchema>;

export interface WorkspaceStore {
  list(): StoredWorkspace[];
  get(id: string): StoredWorkspace | null;
  activeId(): string;
  setActive(id: string): Promise<Result<void>>;
  upsert(workspace: z.input<typeof storedWorkspaceSchema>): Promise<Result<StoredWorkspace>>;
  remove(id: string): Promise<Result<void>>;
  /**
   * The Local workspace always exists; its endpoint and key follow the embedded service each start, or
   * the key the user switched it to (`keyChosen`).
   */
  ensureLocal(endpoint: string, authKey: string, keyChosen?: boolean): Promise<StoredWorkspace>;
  /** Auth mode and token scopes of the Local workspace (its endpoint and key are the app's). */
  setLocalAuth(authMode: 'signature' | 'bearer', tokenScopes: string[] | null): Promise<void>;
}

/** Workspaces as JSON in the data dir, written atomically (temp file + rename). */
export async function createWorkspaceStore(dataDir: string): Promise<WorkspaceStore> {
  const file = path.join(dataDir, 'workspaces.json');
  // The core's data folder: private, including what an older version wrote world-readable.
  ensurePrivateDir(dataDir);
  restrictIfPresent(file);
  let data: WorkspaceFile = await load(file);

  async function save(): Promise<void> {
    ensurePrivateDir(dataDir);
    await writePrivateFile(file, JSON.stringify(data, null, 2));
  }

  const get = (id: string) => data.workspaces.find((w) => w.id === id) ?? null;

  return {
    list: () => data.workspaces.map((w) => ({ ...w })),
    get: (id) => {
      const w = get(id);
      return w ? { ...w } : null;
    },
    activeId: () => (get(data.activeWorkspaceId) ? data.activeWorkspaceId : LOCAL_WORKSPACE_ID),
    async setActive(id) {
      if (!get(id)) return err(AppErrorCode.notFound, `No workspace with id ${id}.`);
      data = { ...data, activeWorkspaceId: id };
      await save();
      return ok(undefined);
    },
    async upsert(workspace: z.input<typeof storedWorkspaceSchema>) {
      const parsed = storedWorkspaceSchema.safeParse(workspace);
      if (!parsed.success) return err(AppErrorCode.invalidRequest, `Invalid workspace: ${parsed.error.issues[0]?.message ?? 'bad input'}`);
      if (parsed.data.id === LOCAL_WORKSPACE_ID || parsed.data.kind === 'local') {
        return err(AppErrorCode.invalidRequest, 'The Local workspace is managed by the app.');
      }
      data = { ...data, workspaces: [...data.workspaces.filter((w) => w.id !== parsed.data.id), parsed.data] };
      await save();
      return ok({ ...parsed.data });
    },
    async remove(id) {
      if (id === LOCAL_WORKSPACE_ID) return err(AppErrorCode.invalidRequest, 'The Local workspace cannot be removed.');
      if (!get(id)) return err(AppErrorCode.notFound, `No workspace with id ${id}.`);
      data = {
        ...data,
        workspaces: data.workspaces.filter((w) => w.id !== id),
        activeWorkspaceId: data.activeWorkspaceId === id ? LOCAL_WORKSPACE_ID : data.activeWorkspaceId,
      };
      await save();
      return ok(undefined);
    },
    async setLocalAuth(authMode, tokenScopes) {
      data = { ...data, workspaces: data.workspaces.map((w) => (w.id === LOCAL_WORKSPACE_ID ? { ...w, authMode, tokenScopes } : w)) };
      await save();
    },
    async ensureLocal(endpoint, authKey, keyChosen = false) {
      const before = get(LOCAL_WORKSPACE_ID);
      // The user's choices (auth mode, token scopes) survive restarts; endpoint and key follow the service.
      const local: StoredWorkspace = {
        id: LOCAL_WORKSPACE_ID,
        name: LOCAL_WORKSPACE_NAME,
        kind: 'local',
        endpoint,
        authKey,
        signatureAlgo: 'sha384',
        slug: 'local',
        authMode: before?.authMode === 'bearer' ? 'bearer' : 'signature',
        tokenScopes: before?.tokenScopes ?? null,
        ...(keyChosen ? { keyChosen: true } : {}),
      };
      data = { ...data, workspaces: [local, ...data.workspaces.filter((w) => w.id !== LOCAL_WORKSPACE_ID)] };
      await save();
      return { ...local };
    },
  };
}

async function load(file: string): Promise<WorkspaceFile> {
  const empty: WorkspaceFile = { version: 1, activeWorkspaceId: LOCAL_WORKSPACE_ID, workspaces: [] };
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch {
    return empty;
  }
  let json: unknown = null;
  try {
    json = JSON.parse(raw);
  } catch {
    // falls through to the corrupt-file branch
  }
  const parsed = fileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  // Keep the unreadable file for the user to inspect instead of overwriting it silently.
  await rename(file, `${file}.corrupt-${Date.now()}`).catch(() => undefined);
  return empty;
}
