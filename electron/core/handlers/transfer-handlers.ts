import type { Handlers } from '../ipc/handlers';
import { AppErrorCode, err } from '../../../shared/result';
import type { HandlerContext } from './context';

type TransferChannels = 'transfers:start' | 'transfers:overview' | 'transfers:rows' | 'transfers:control' | 'transfers:settings' | 'transfers:saveSettings';

// SCAFFOLD (replaced by electron/core/transfers in this session): answers that the engine is not built yet.
export function createTransferHandlers(_ctx: HandlerContext): Pick<Handlers, TransferChannels> {
  const notYet = async () => err(AppErrorCode.internal, 'Transfers are not available yet.');
  return {
    'transfers:start': notYet,
    'transfers:overview': notYet,
    'transfers:rows': notYet,
    'transfers:control': notYet,
    'transfers:settings': notYet,
    'transfers:saveSettings': notYet,
  };
}
