import type { Route } from '../../state/navigation-store';
import { useTransfers } from './transfer-store';

/**
 * Where "Open the Assembly" of a batch goes: the Assembly's one view once the batch has its Assembly, else
 * its run (`#/run/<id>`, which becomes the Assembly's view as soon as the service created it).
 */
export const assemblyRouteOfRun = (runId: string): Route => {
  for (const b of useTransfers.getState().batches.values()) if (b.runId === runId && b.assemblyId) return { name: 'assembly', assemblyId: b.assemblyId };
  return { name: 'run', runId };
};
