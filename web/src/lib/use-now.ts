import { useEffect, useState } from 'react';

/**
 * The clock, read again every `everyMs` (every second unless told), for countdowns to re-render
 * from. `null` stops the ticking while nothing on screen counts down (a countdown in minutes needs
 * no finer tick); it reads the clock afresh when ticking starts again.
 */
export function useNow(everyMs: number | null = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (everyMs === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
