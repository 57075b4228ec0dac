import { useEffect, type RefObject } from 'react';

/** The fields whose value is what a person types (not a box, a choice or a file). */
const TYPED_INPUTS = new Set(['text', 'email', 'tel', 'search', 'url', 'number', 'password', '']);

/**
 * What a person entered into a prerendered form before the app took it over (typed, picked from a
 * list, a box or round choice ticked), handed to the form's state. Hydration keeps what the fields
 * show, but the state starts from the first render, so without this Submit would check empty values
 * against fields that show text ("Name is required" beside a name) on a slow phone, and the next
 * render would set a list back to what was rendered. Each field that shows other than what React
 * rendered is told to React as the edit it would have seen.
 */
export function adoptTypedValues(form: HTMLFormElement | null): void {
  if (!form) return;
  for (const field of form.elements) {
    if (field instanceof HTMLSelectElement) adoptChoice(field);
    else if (field instanceof HTMLInputElement && (field.type === 'radio' || field.type === 'checkbox')) adoptBox(field);
    else if (field instanceof HTMLTextAreaElement || (field instanceof HTMLInputElement && TYPED_INPUTS.has(field.type))) adoptText(field);
  }
}

/**
 * A text field's rendered value is its `defaultValue` (React keeps it equal to the controlled
 * value). React's own change tracking is set back to it, so the input event reads as an edit.
 */
function adoptText(field: HTMLInputElement | HTMLTextAreaElement): void {
  const typed = field.value;
  const rendered = field.defaultValue;
  if (typed === rendered) return;
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const showValue = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (!showValue) return;
  // Through the instance's own setter, which React watches: it now believes the field shows what it rendered.
  field.value = rendered;
  // Past it: the field shows what was typed again, and the input event is an edit to React.
  showValue.call(field, typed);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/** React reads a list's change from the change event alone; the rendered option is the one marked selected. */
function adoptChoice(select: HTMLSelectElement): void {
  if (select.disabled) return;
  const rendered = Array.from(select.options).find((option) => option.defaultSelected) ?? select.options[0];
  if (!rendered || rendered.selected) return;
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

/**
 * React watches a box's `checked` the way it watches a text field's value, and reads its change
 * from the click. Of a group of round choices, the one now ticked tells React; the one it replaced
 * follows from React's state.
 */
function adoptBox(box: HTMLInputElement): void {
  if (box.disabled || box.checked === box.defaultChecked) return;
  if (box.type === 'radio' && !box.checked) return;
  // Through the instance's setter: React believes the box shows what it rendered; the click ticks it again.
  box.checked = box.defaultChecked;
  box.click();
}

/** Runs adoptTypedValues once the form is hydrated (its first effects run after that commit). */
export function useTypedBeforeHydration(form: RefObject<HTMLFormElement | null>): void {
  useEffect(() => adoptTypedValues(form.current), [form]);
}
