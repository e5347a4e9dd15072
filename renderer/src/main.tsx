import './zod-config';
// The shared styles first: each feature's stylesheet (imported by its screens) comes after and refines them.
import './styles/app.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { BridgeProvider } from './bridge/BridgeProvider';
import { waitForBridge } from './bridge/get-bridge';
import { NoBridge } from './features/shell/NoBridge';
import { warmDateFormats } from './lib/date-time';
import { loadTransfersView } from './features/transfers/view-loader';
import { rememberRoute } from './state/navigation-store';
import { applyTheme, useTheme } from './state/theme-store';

const start = async (): Promise<void> => {
  applyTheme(useTheme.getState().theme);
  const root = createRoot(document.getElementById('root') as HTMLElement);
  const bridge = await waitForBridge();
  if (!bridge) {
    root.render(<NoBridge />);
    return;
  }
  // Electron starts without a hash; the browser host's URL carries the screen already.
  if (bridge.host === 'electron') rememberRoute(window, window.localStorage);
  // Core is the "server": errors are data already, so retries would only delay showing them.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } });
  root.render(
    <StrictMode>
      <BridgeProvider bridge={bridge}>
        <QueryClientProvider client={client}>
          <App />
        </QueryClientProvider>
      </BridgeProvider>
    </StrictMode>,
  );
  // Not inside the first screen that shows a date: the locale's date data loads while the page is idle.
  // And the Transfers view's code (where Start leads), compiled whole as it loads: each its own idle task.
  const whenIdle = (work: () => void) => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(work, { timeout: 5_000 });
    else setTimeout(work, 1_000);
  };
  whenIdle(warmDateFormats);
  // Only a warm-up: a chunk that cannot load now (the app went away) is loaded again when Transfers opens.
  whenIdle(() => void loadTransfersView().catch(() => undefined));
};

void start();
