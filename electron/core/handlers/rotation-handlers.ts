import { ok } from '../../../shared/result';
import type { Handlers } from '../ipc/handlers';
import type { KeyRotation } from '../rotation/key-rotation';

type Channels = 'rotations:list' | 'rotations:start' | 'rotations:resume' | 'rotations:rollback' | 'rotations:deleteOldKey';

export function createRotationHandlers(rotation: KeyRotation): Pick<Handlers, Channels> {
  return {
    'rotations:list': async () => ok(rotation.list()),
    'rotations:start': ({ workspaceId }) => rotation.start(workspaceId),
    'rotations:resume': ({ id }) => rotation.resume(id),
    'rotations:rollback': ({ id }) => rotation.rollback(id),
    'rotations:deleteOldKey': ({ id }) => rotation.deleteOldKey(id),
  };
}
