import { useEffect, type RefObject } from 'react';

/** The fields whose value is what a person types (not a box, a choice or a file). */
const TYPED_INPUTS = new Set(['text', 'email', 'tel', 'search', 'url', 'number', 'password', '']);

/**
 * What a person typed into a prerendered form before the app took it over, handed to the form's
 * state. Hydration keeps what the fields show, but the state starts from the first render, so
 * without this Submit would check empty values against fields that show text ("Name is required"
 * beside a name) on a slow phone. A field that shows other than what React rendered (its
 * `defaultValue`, which React keeps equal to the controlled value) is told to React as an edit:
 * React's own change tracking is set back to the rendered value, so the input event reads as one.
 */
export function adoptTypedValues(form: HTMLFormElement | null): void {
  if (!form) return;
  for (const field of form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
    if (field instanceof HTMLInputElement && !TYPED_INPUTS.has(field.type)) continue;
    const typed = field.value;
    const rendered = field.defaultValue;
    if (typed === rendered) continue;
    const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    const showValue = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
    if (!showValue) continue;
    // Through the instance's own setter, which React watches: it now believes the field shows what it rendered.
    field.value = rendered;
    // Past it: the field shows what was typed again, and the input event is an edit to React.
    showValue.call(field, typed);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

/** Runs adoptTypedValues once the form is hydrated (its first effects run after that commit). */
export function useTypedBeforeHydration(form: RefObject<HTMLFormElement | null>): void {
  useEffect(() => adoptTypedValues(form.current), [form]);
}
