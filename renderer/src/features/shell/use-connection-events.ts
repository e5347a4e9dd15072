import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ServiceStatus } from '../../../../shared/ipc/service-models';
import { useBridge } from '../../bridge/BridgeProvider';
import { bridgeKey } from '../../bridge/use-bridge';
import { useConnection } from './connection-store';
import { useToasts } from '../../state/toast-store';

export const serviceStatusKey = () => bridgeKey('service:status', {});

/**
 * Keeps the header honest about the app's own parts: the browser host's link (down → banner; back →
 * every screen reads again, so nothing stays stuck on "Uploading"), the local service's process
 * (`service:status`), and errors no request was waiting for (`app:error`, shown as a toast).
 */
export const useConnectionEvents = (): void => {
  const bridge = useBridge();
  const client = useQueryClient();
  const show = useToasts((s) => s.show);
  useEffect(() => {
    const offService = bridge.on('service:status', (status) => {
      const before = client.getQueryData<ServiceStatus>(serviceStatusKey());
      client.setQueryData(serviceStatusKey(), status);
      // Back after a restart: what the screens show from the service may be stale.
      if (status.phase === 'running' && before && before.phase !== 'running') void client.invalidateQueries();
    });
    const offError = bridge.on('app:error', (error) => show(`Something went wrong in the app (${error.code}): ${error.message}. It keeps running.`, 'danger'));
    const offConnection = bridge.onConnection?.((connected) => {
      const was = useConnection.getState().hostConnected;
      useConnection.getState().setHostConnected(connected);
      if (connected && !was) void client.invalidateQueries();
    });
    return () => {
      offService();
      offError();
      offConnection?.();
    };
  }, [bridge, client, show]);
};
