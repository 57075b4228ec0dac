import { useCallback, useRef, useState } from 'react';

type Focusable = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement | null;

/**
 * The field messages of one form, in the form's field order, and a ref per field so the first
 * invalid one takes focus (the pattern of the booking form).
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
