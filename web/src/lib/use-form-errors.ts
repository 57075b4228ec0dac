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

/**
 * A form of text fields, in `order`: their values, and what each field's input takes (its name, its
 * value, the ref that lets it take focus when it is the first invalid one, onChange), with the
 * messages of useFormErrors.
 */
export function useFormFields<F extends string>(order: readonly F[], initial: Record<F, string>) {
  const [values, setValues] = useState(initial);
  const messages = useFormErrors(order);
  const bind = (field: F) => ({
    name: field,
    value: values[field],
    ref: messages.refFor(field),
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((v) => ({ ...v, [field]: value }));
    },
  });
  return { ...messages, values, setValues, bind };
}

/** True when fetch itself failed (no answer at all), as opposed to an error status. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}
