import { useEffect, useMemo, useRef } from 'react';
import { useBridge } from '../../bridge/BridgeProvider';

/**
 * Sign-in keys generated in one workspace form. A key the form lets go of is deleted in core
 * (workspaces:clientKeyDiscard): the one replaced by generating again, and, when the form closes
 * (Cancel, Save, another screen), every one a sign-in did not keep.
 */
export const useGeneratedClientKeys = () => {
  const bridge = useBridge();
  const kids = useRef<string[]>([]);
  const api = useMemo(() => {
    const discard = (keep: string | null) => {
      for (const kid of kids.current) if (kid !== keep) void bridge.invoke('workspaces:clientKeyDiscard', { kid });
      kids.current = keep ? [keep] : [];
    };
    return {
      /** A new key: the ones generated before it are abandoned. */
      generated: (kid: string) => discard(kid),
      /** A sign-in saved the workspace with its key: nothing to delete any more. */
      kept: () => void (kids.current = []),
      discardAll: () => discard(null),
    };
  }, [bridge]);
  useEffect(() => () => api.discardAll(), [api]);
  return api;
};
