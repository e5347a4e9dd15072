import { useEffect, useRef, useState } from 'react';

/** The value, updated at most every `ms` (the latest one wins): a count that changes 50 times a second refetches twice. */
export const useThrottled = <T>(value: T, ms: number): T => {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    const wait = Math.max(0, last.current + ms - Date.now());
    const timer = setTimeout(() => {
      last.current = Date.now();
      setShown(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return shown;
};
