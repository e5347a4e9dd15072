import type { ChannelName, ChannelResponse, ParsedRequest } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/result';

/** One implementation per channel; the type fails to compile until every channel of the contract has one. */
export type Handlers = {
  [C in ChannelName]: (request: ParsedRequest<C>) => Promise<Result<ChannelResponse<C>>>;
};
