import { useMutation, useQuery, type UseMutationOptions, type UseQueryOptions } from '@tanstack/react-query';
import type { ChannelName, ChannelRequest, ChannelResponse } from '../../../shared/ipc/contract';
import { unwrap, type BridgeError } from './bridge-error';
import { useBridge } from './BridgeProvider';

export const bridgeKey = <C extends ChannelName>(channel: C, request: ChannelRequest<C>) => [channel, request] as const;

type QueryOptions<C extends ChannelName> = Omit<UseQueryOptions<ChannelResponse<C>, BridgeError>, 'queryKey' | 'queryFn'>;

/** Read from core; the cache key is [channel, request], so events can update it with setQueryData. */
export const useBridgeQuery = <C extends ChannelName>(channel: C, request: ChannelRequest<C>, options: QueryOptions<C> = {}) => {
  const bridge = useBridge();
  return useQuery<ChannelResponse<C>, BridgeError>({
    queryKey: bridgeKey(channel, request),
    queryFn: async () => unwrap(await bridge.invoke(channel, request)),
    ...options,
  });
};

type MutationOptions<C extends ChannelName> = Omit<UseMutationOptions<ChannelResponse<C>, BridgeError, ChannelRequest<C>>, 'mutationFn'>;

export const useBridgeMutation = <C extends ChannelName>(channel: C, options: MutationOptions<C> = {}) => {
  const bridge = useBridge();
  return useMutation<ChannelResponse<C>, BridgeError, ChannelRequest<C>>({
    mutationFn: async (request) => unwrap(await bridge.invoke(channel, request)),
    ...options,
  });
};
