/** Whole seconds left until a deadline, rounded up (so "1" shows until it is due), never below 0. */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** "8 seconds", "1 second". */
export function secondsPhrase(seconds: number): string {
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}
