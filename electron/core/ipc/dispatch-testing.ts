import type { ChannelName } from '../../../shared/ipc/contract';
import type { Handlers } from './handlers';
import { dispatch } from './dispatch';

/**
 * For tests that drive core as the renderer does (through `dispatch`, so every request is parsed by its
 * schema): `call` answers the value or throws with the channel's code, `failure` answers the error or null.
 * `handlers` is read on every call, so a test may restart core behind it.
 */
export function channelCaller(handlers: () => Handlers) {
  const call = async <T>(channel: ChannelName, request: unknown): Promise<T> => {
    const answer = await dispatch(handlers(), channel, request);
    if (!answer.ok) throw new Error(`${channel}: ${answer.error.code} ${answer.error.message}`);
    return answer.value as T;
  };
  const failure = async (channel: ChannelName, request: unknown) => {
    const answer = await dispatch(handlers(), channel, request);
    return answer.ok ? null : answer.error;
  };
  return { call, failure };
}
