import { channels, isChannelName } from '../../../shared/ipc/contract';
import { AppErrorCode, err, type Result } from '../../../shared/result';
import type { Handlers } from './handlers';

/**
 * The single entry point both hosts (Electron IPC and the browser host's WebSocket) call with what
 * arrived from the page. The page is untrusted: the channel must be in the contract and the request
 * must parse with the channel's schema before any handler runs. Handler exceptions become data.
 */
export async function dispatch(handlers: Handlers, channel: unknown, rawRequest: unknown): Promise<Result<unknown>> {
  if (!isChannelName(channel)) {
    return err(AppErrorCode.unknownChannel, `Unknown channel: ${String(channel).slice(0, 80)}`);
  }
  const parsed = channels[channel].request.safeParse(rawRequest ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    return err(AppErrorCode.invalidRequest, `Invalid request for ${channel}${where}: ${issue?.message ?? 'bad input'}`);
  }
  try {
    const handler = handlers[channel] as (request: unknown) => Promise<Result<unknown>>;
    return await handler(parsed.data);
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    return err(AppErrorCode.internal, message);
  }
}
