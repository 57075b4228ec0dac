import { useRef } from 'react';

/**
 * The Idempotency-Key of a form's submission: the same while the person presses again after a
 * timeout or a 503 (the server then answers with what the first press made, if it landed), a new
 * one once a submission succeeded.
 */
export function useSubmissionKey(): { current: () => string; done: () => void } {
  const key = useRef<string | null>(null);
  return {
    current: () => (key.current ??= crypto.randomUUID()),
    done: () => {
      key.current = null;
    },
  };
}
