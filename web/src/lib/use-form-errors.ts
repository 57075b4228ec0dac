import { useCallback, useRef, useState } from 'react';

type Focusable = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement | HTMLElement | null;

/**
 * A form's field messages (one per field, from the shared schema or the server's 400 `fields`)
 * and a ref per field, so the first invalid one in the form's order takes focus.
 */
export function useFormErrors<F extends string>(order: readonly F[]) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const refs = useRef<Partial<Record<F, Focusable>>>({});
  const show = useCallback(
    (next: Record<string, string>) => {
      setErrors(next);
      const first = order.find((field) => next[field]);
      if (first) refs.current[first]?.focus();
    },
    [order],
  );
  const refFor = useCallback(
    (field: F) => (el: Focusable) => {
      refs.current[field] = el;
    },
    [],
  );
  const clear = useCallback(() => setErrors({}), []);
  return { errors, show, clear, refFor };
}

/** True when fetch itself failed (no answer at all), as opposed to an error status. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}
