import { createContext, useContext, type ReactNode } from 'react';
import type { AssemblylineBridge } from '../../../shared/ipc/bridge';

const BridgeContext = createContext<AssemblylineBridge | null>(null);

export const BridgeProvider = ({ bridge, children }: { bridge: AssemblylineBridge; children: ReactNode }) => (
  <BridgeContext.Provider value={bridge}>{children}</BridgeContext.Provider>
);

export const useBridge = (): AssemblylineBridge => {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge outside BridgeProvider');
  return bridge;
};
