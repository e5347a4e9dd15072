import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { WebhookTester } from '../../../../shared/ipc/webhook-models';
import { useBridge } from '../../bridge/BridgeProvider';
import { bridgeKey, useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';

const KEY = bridgeKey('webhooks:list', {});

/** The in-app webhook tester: its URL (null until started), what it received (live), start and clear. */
export const useWebhookTester = () => {
  const bridge = useBridge();
  const client = useQueryClient();
  const tester = useBridgeQuery('webhooks:list', {});
  const put = (state: WebhookTester) => client.setQueryData(KEY, state);
  const start = useBridgeMutation('webhooks:start', { onSuccess: put });
  const clear = useBridgeMutation('webhooks:clear', { onSuccess: put });

  useEffect(
    () =>
      bridge.on('webhooks:received', (webhook) =>
        client.setQueryData<WebhookTester>(KEY, (held) => ({ url: held?.url ?? null, received: [webhook, ...(held?.received ?? []).filter((w) => w.id !== webhook.id)].slice(0, 100) })),
      ),
    [bridge, client],
  );

  return { tester, start, clear };
};
