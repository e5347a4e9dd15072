// Steps whose robot takes no input and brings files in (/transloadit/import): run once per step, with
// the Assembly's variables but no `${file…}` (there is no file yet).

import { interpolateParams, NEVER_INTERPOLATED, type Scope } from '../instructions/interpolation';
import { validateRobotParams } from '../instructions/robot-params';
import type { AssetAccess, ChatAccess, CredentialLookup, NetworkAccess, RobotFileOutcome, SourceRunner } from './robot-types';

export interface SourceStepContext {
  assemblyId: string;
  fields: Record<string, unknown>;
  signal: AbortSignal;
  credentials?: CredentialLookup;
  assets?: AssetAccess;
  network?: NetworkAccess;
  /** For /image/generate: the operator's model server. */
  chat?: ChatAccess;
}

export async function runSourceStep(runner: SourceRunner, ctx: SourceStepContext, name: string, step: { robot: string } & Record<string, unknown>, outDir: string): Promise<RobotFileOutcome> {
  const scope: Scope = { fields: ctx.fields, assembly: { id: ctx.assemblyId }, previous_step: { name: null }, date: { now: Date.now() } };
  const params = interpolateParams(step, scope, NEVER_INTERPOLATED);
  const paramError = validateRobotParams(name, step.robot, params, { interpolated: true });
  if (paramError) return { ok: false, ...paramError };
  try {
    return await runner({ step: name, robot: step.robot, params, scope, outDir, signal: ctx.signal, credentials: ctx.credentials ?? (() => null), assets: ctx.assets, chat: ctx.chat, network: ctx.network });
  } catch (e) {
    return { ok: false, code: 'INTERNAL_COMMAND_ERROR', message: `Step "${name}" (${step.robot}) failed: ${(e as Error).message}` };
  }
}
