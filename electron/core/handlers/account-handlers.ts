import { getBill, getStats } from '../account/account-api';
import type { Handlers } from '../ipc/handlers';
import { withApi, type HandlerContext } from './context';

type Channels = 'account:bill' | 'account:stats';

/** The Usage and Statistics screens: the workspace's bill and Assembly statistics (docs/account.md). */
export function createAccountHandlers(ctx: HandlerContext): Pick<Handlers, Channels> {
  return {
    'account:bill': ({ workspaceId, month }) => withApi(ctx, workspaceId, (api) => getBill(api, month)),
    'account:stats': ({ workspaceId, ...query }) => withApi(ctx, workspaceId, (api) => getStats(api, query)),
  };
}
