import { useEffect, useState } from 'react';

/** True after `ms`: rows scrolled past quickly never start their thumbnail request. */
export const useDelayed = (ms: number): boolean => {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return ready;
};
