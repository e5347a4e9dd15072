import { useEffect } from 'react';
import type { DraftChoice } from '../../../../shared/ipc/draft-choice';
import { useBridge } from '../../bridge/BridgeProvider';
import { choiceOf, sameChoice, useStepsChoice } from '../../state/steps-store';

/** Typing in the steps editor saves once the user pauses, not per keystroke. */
export const CHOICE_SAVE_DELAY_MS = 400;

/**
 * The Upload view's "What to do" survives a reload and a restart: read from core once at start, saved to
 * core (debounced) on every change, and at once when the page goes away. Mounted by App, so a choice made
 * elsewhere (a Template's "Use") is saved too, and wins over the saved one if it came first.
 */
export const useSavedStepsChoice = (): void => {
  const bridge = useBridge();
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let pending: DraftChoice | null = null;
    let unsubscribe = () => undefined as void;

    const save = () => {
      timer = null;
      if (!pending) return;
      const choice = pending;
      pending = null;
      // A failed save leaves the choice as it is on screen; core reports its own write failures (app:error).
      void bridge.invoke('drafts:saveChoice', { choice });
    };
    const later = (choice: DraftChoice) => {
      pending = choice;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(save, CHOICE_SAVE_DELAY_MS);
    };
    const flush = () => {
      if (timer === null) return;
      clearTimeout(timer);
      save();
    };

    const atStart = useStepsChoice.getState();
    void bridge.invoke('drafts:choice', {}).then((result) => {
      if (!live) return;
      const untouched = useStepsChoice.getState() === atStart;
      if (untouched && result.ok && result.value) useStepsChoice.getState().restore(result.value);
      else if (!untouched) later(choiceOf(useStepsChoice.getState()));
      unsubscribe = useStepsChoice.subscribe((state, previous) => {
        const next = choiceOf(state);
        if (!sameChoice(next, choiceOf(previous))) later(next);
      });
    });
    window.addEventListener('pagehide', flush);
    return () => {
      live = false;
      unsubscribe();
      flush();
      window.removeEventListener('pagehide', flush);
    };
  }, [bridge]);
};
