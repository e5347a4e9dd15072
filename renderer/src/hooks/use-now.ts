import { useEffect, useState } from 'react';

/** The current time, re-read every `ms` while `active` (for live elapsed times). */
export const useNow = (active: boolean, ms = 1_000): number => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
  return now;
};
