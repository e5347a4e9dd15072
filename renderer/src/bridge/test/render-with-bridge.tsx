import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { AssemblylineBridge } from '../../../../shared/ipc/bridge';
import { BridgeProvider } from '../BridgeProvider';

/** Render a screen the way main.tsx does, with the given bridge and a fresh query cache. */
export const renderWithBridge = (ui: ReactElement, bridge: AssemblylineBridge) => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const utils = render(
    <BridgeProvider bridge={bridge}>
      <QueryClientProvider client={client}>{ui}</QueryClientProvider>
    </BridgeProvider>,
  );
  return { ...utils, client };
};
