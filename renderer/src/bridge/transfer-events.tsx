import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo } from 'react';
import { createTransferController, type TransferController } from '../features/transfers/transfer-store';
import { useBridge } from './BridgeProvider';
import { bridgeKey } from './use-bridge';

export const draftKey = () => bridgeKey('drafts:get', {});

const ControllerContext = createContext<TransferController | null>(null);
export const TransferControllerProvider = ControllerContext.Provider;

export const useTransferController = (): TransferController => {
  const controller = useContext(ControllerContext);
  if (!controller) throw new Error('useTransferController outside <App/>');
  return controller;
};

/**
 * The one subscription to the draft's and the queue's events (App mounts it): `draft:updated` replaces
 * the draft summary in the query cache; `transfers:changed` goes to the transfer controller, which
 * applies it once per frame. The link to the host coming back reads the queue again.
 */
export const useTransferEvents = (): TransferController => {
  const bridge = useBridge();
  const client = useQueryClient();
  const controller = useMemo(() => createTransferController(bridge), [bridge]);
  useEffect(() => {
    const stop = controller.start();
    const offDraft = bridge.on('draft:updated', (summary) =>
      client.setQueryData(draftKey(), (old: typeof summary | undefined) => (old && old.version > summary.version ? old : summary)),
    );
    const offConnection = bridge.onConnection?.((connected) => connected && controller.reload());
    // Back after a restart of the local service: what the queue showed may have moved meanwhile.
    let phase: string | null = null;
    const offService = bridge.on('service:status', (status) => {
      if (status.phase === 'running' && phase !== null && phase !== 'running') controller.reload();
      phase = status.phase;
    });
    return () => {
      stop();
      offDraft();
      offConnection?.();
      offService();
    };
  }, [bridge, client, controller]);
  return controller;
};
