import { create } from 'zustand';
import { NO_FILTERS, type ActivityFilters } from './activity-filters';

interface ActivityState {
  readonly filters: ActivityFilters;
  readonly setFilters: (change: Partial<ActivityFilters>) => void;
  readonly clear: () => void;
}

/** Activity's filters outlive a visit to an Assembly's detail: Back lands on the same filtered list. */
export const useActivityFilters = create<ActivityState>((set) => ({
  filters: NO_FILTERS,
  setFilters: (change) => set((s) => ({ filters: { ...s.filters, ...change } })),
  clear: () => set({ filters: NO_FILTERS }),
}));
