import { create } from 'zustand';

export type Route =
  | { readonly name: 'upload' }
  | { readonly name: 'activity' }
  /** The transfer queue; `batchId` narrows the list to one batch (from a run's "Files are in Transfers"). */
  | { readonly name: 'transfers'; readonly batchId?: string }
  | { readonly name: 'run'; readonly runId: string }
  | { readonly name: 'templates'; readonly selectedId?: string }
  | { readonly name: 'credentials' }
  | { readonly name: 'workspaces' }
  | { readonly name: 'auth-keys' }
  | { readonly name: 'cdn' }
  /** Create (no id), edit (id) or duplicate (id, copy) a Template. */
  | { readonly name: 'template-editor'; readonly id?: string; readonly copy?: boolean };

interface NavigationState {
  readonly route: Route;
  readonly navigate: (route: Route) => void;
}

export const useNavigation = create<NavigationState>((set) => ({
  route: { name: 'upload' },
  navigate: (route) => set({ route }),
}));
