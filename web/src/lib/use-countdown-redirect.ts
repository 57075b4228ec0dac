import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { secondsLeft } from './countdown';

/** How often the shown count is brought up to date; the redirect itself keys off the clock, not ticks. */
const TICK_MS = 250;

/**
 * Goes to `to` after `ms`, counting the seconds down for the screen. Read from the clock each tick
 * (a throttled background tab delays timers, it does not stop time), and replacing the history
 * entry so Back does not land on a screen that leaves again. `stay()` cancels it, so someone who
 * needs longer to read can.
 */
export function useCountdownRedirect(to: string, ms: number): { seconds: number; stayed: boolean; stay: () => void } {
  const navigate = useNavigate();
  const [deadline] = useState(() => Date.now() + ms);
  const [seconds, setSeconds] = useState(() => secondsLeft(deadline, Date.now()));
  const [stayed, setStayed] = useState(false);

  useEffect(() => {
    if (stayed) return;
    const tick = () => {
      const left = secondsLeft(deadline, Date.now());
      setSeconds(left);
      if (left > 0) return;
      window.clearInterval(timer);
      void navigate(to, { replace: true });
    };
    const timer = window.setInterval(tick, TICK_MS);
    return () => window.clearInterval(timer);
  }, [deadline, navigate, stayed, to]);

  const stay = useCallback(() => setStayed(true), []);
  return { seconds, stayed, stay };
}
