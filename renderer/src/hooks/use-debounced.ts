import { useEffect, useState } from 'react';

/** The value once it has stopped changing for `ms`: typing an address does not probe every prefix of it. */
export const useDebounced = <T>(value: T, ms: number): T => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
};
