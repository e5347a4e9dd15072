import { create } from 'zustand';

export type Route = { readonly name: 'upload' } | { readonly name: 'activity' } | { readonly name: 'run'; readonly runId: string };

interface NavigationState {
  readonly route: Route;
  readonly navigate: (route: Route) => void;
}

export const useNavigation = create<NavigationState>((set) => ({
  route: { name: 'upload' },
  navigate: (route) => set({ route }),
}));
