import { useCallback, useRef, useState } from 'react';

/**
 * The booking form's error handling, for any field list: one message per field, and the first
 * invalid field (in the order given) takes focus.
 */
export function useFormErrors<F extends string>(order: readonly F[]) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const refs = useRef<Partial<Record<F, HTMLElement | null>>>({});

  const show = useCallback(
    (next: Record<string, string>) => {
      setErrors(next);
      const first = order.find((field) => next[field]);
      if (first) refs.current[first]?.focus();
    },
    [order],
  );
  const ref = useCallback(
    (field: F) => (el: HTMLElement | null) => {
      refs.current[field] = el;
    },
    [],
  );
  const clear = useCallback(() => setErrors({}), []);

  return { errors, show, clear, ref };
}

/** True when fetch itself failed (no answer at all), as opposed to an error status. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}
