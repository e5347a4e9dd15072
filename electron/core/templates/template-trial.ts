import { randomUUID } from 'node:crypto';
import { isAssemblyBusy } from '../../../shared/api/codes';
import { compareTrialRuns, localCopyOfTemplate } from '../../../shared/api/template-trial';
import type { LocalFile, Run } from '../../../shared/ipc/models';
import type { TemplateTrial } from '../../../shared/ipc/template-models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { RUN_CREATING } from '../runs/run-state';
import type { RunManager } from '../runs/run-manager';
import type { StartRunInput } from '../transfers/transfer-engine';
import { LOCAL_WORKSPACE_ID } from '../workspaces/workspace-store';
import { listCredentials } from './credential-api';
import { createTemplate, getTemplate, updateTemplate } from './template-api';
import type { StoredTrial, TrialStore } from './trial-store';

export interface TemplateTrialDeps {
  clientFor(workspaceId: string | undefined): Result<{ workspaceId: string; api: ApiClient }>;
  startRun(input: StartRunInput): Promise<Result<Run>>;
  runs: Pick<RunManager, 'get'>;
  /** Tries and the Local copies they made, kept across restarts. */
  store: TrialStore;
}

type Trial = StoredTrial;

export interface TemplateTrials {
  /** Copy the remote Template to the Local workspace and run the same files on both. */
  start(input: { workspaceId: string; templateId: string; files: LocalFile[] }): Promise<Result<TemplateTrial>>;
  /** A try as it stands now (both runs, the comparison so far). */
  get(trialId: string): Result<TemplateTrial>;
  /** The newest try of a remote workspace's Template (also one made before a restart), or null. */
  latest(input: { workspaceId: string; templateId: string }): Result<TemplateTrial | null>;
}

/** A run's state as a try shows it: ended once its Assembly is no longer busy (or it never got one). */
function sideOf(runs: TemplateTrialDeps['runs'], side: { workspaceId: string; runId: string }): { view: TemplateTrial['remote']; run: Run | null } {
  const got = runs.get(side.runId);
  const run = got.ok ? got.value : null;
  const status = run?.status ?? null;
  const state = run?.state ?? 'UNKNOWN';
  // Without a status the run ended only if it failed before its Assembly existed (refused, interrupted).
  const ended = run === null || (status ? !isAssemblyBusy(status) : run.error !== null && run.state !== RUN_CREATING);
  return {
    run,
    view: {
      workspaceId: side.workspaceId,
      runId: side.runId,
      assemblyId: run?.assemblyId ?? null,
      state,
      ended,
      error: run?.error ? { code: run.error.code, message: run.error.message } : null,
      executionSeconds: typeof status?.execution_duration === 'number' ? status.execution_duration : null,
    },
  };
}

/**
 * "Try this Template here first", in core: the remote Template is read with the remote workspace's key,
 * copied to the Local workspace (localCopyOfTemplate says what changed and why), and the picked files are
 * sent to both as two ordinary runs, so the Assembly view, Activity and Transfers show them like any other.
 * The page only ever sees the copy's changes and the figures; every secret stays here.
 */
export function createTemplateTrials(deps: TemplateTrialDeps): TemplateTrials {
  const { store } = deps;

  const view = (t: Trial): TemplateTrial => {
    const remote = sideOf(deps.runs, t.remote);
    const local = sideOf(deps.runs, t.local);
    return {
      id: t.id,
      templateId: t.templateId,
      templateName: t.templateName,
      localTemplateId: t.localTemplateId,
      files: t.files,
      changes: t.changes,
      remote: remote.view,
      local: local.view,
      ended: remote.view.ended && local.view.ended,
      steps: compareTrialRuns({ remoteContent: t.remoteContent, localContent: t.localContent, remote: remote.run?.status ?? null, local: local.run?.status ?? null }),
    };
  };

  return {
    async start({ workspaceId, templateId, files }) {
      if (workspaceId === LOCAL_WORKSPACE_ID) return err(AppErrorCode.invalidRequest, 'This Template is already on this computer: try a Template of a remote workspace.');
      const remote = deps.clientFor(workspaceId);
      if (!remote.ok) return remote;
      const local = deps.clientFor(LOCAL_WORKSPACE_ID);
      if (!local.ok) return local;
      const template = await getTemplate(remote.value.api, templateId);
      if (!template.ok) return template;
      const credentials = await listCredentials(local.value.api);
      if (!credentials.ok) return credentials;
      const copy = localCopyOfTemplate(template.value.content, new Set(credentials.value.map((c) => c.name)));
      const description = `A copy of "${template.value.name}" (${templateId}) from another workspace, made by "Try this Template here first".`;
      // The Local copy of this remote Template: a second try updates it instead of adding another.
      const known = store.copyOf(workspaceId, templateId);
      const change = { name: `${template.value.name} (tried here)`.slice(0, 255), content: copy.content, description, requireSignatureAuth: 0 as const };
      let saved = known ? await updateTemplate(local.value.api, known, change) : null;
      if (!saved?.ok) saved = await createTemplate(local.value.api, change);
      if (!saved.ok) return saved;
      store.setCopy(workspaceId, templateId, saved.value.id);

      const remoteRun = await deps.startRun({ workspaceId, instructions: { template_id: templateId }, files });
      if (!remoteRun.ok) return remoteRun;
      const localRun = await deps.startRun({ workspaceId: LOCAL_WORKSPACE_ID, instructions: { template_id: saved.value.id }, files });
      if (!localRun.ok) return localRun;
      const trial: Trial = {
        id: randomUUID(),
        createdAt: new Date().toISOString(),
        templateId,
        templateName: template.value.name,
        localTemplateId: saved.value.id,
        remoteContent: template.value.content,
        localContent: copy.content,
        changes: copy.changes,
        files: files.length,
        remote: { workspaceId, runId: remoteRun.value.runId },
        local: { workspaceId: LOCAL_WORKSPACE_ID, runId: localRun.value.runId },
      };
      store.save(trial);
      return ok(view(trial));
    },
    get(trialId) {
      const trial = store.get(trialId);
      return trial ? ok(view(trial)) : err(AppErrorCode.notFound, `No try with id ${trialId}.`);
    },
    latest({ workspaceId, templateId }) {
      const trial = store.latest(workspaceId, templateId);
      return ok(trial ? view(trial) : null);
    },
  };
}
