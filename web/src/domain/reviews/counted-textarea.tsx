import type { Ref } from 'react';
import { REVIEW_MAX } from '../../../../shared/schemas/review';
import { cn } from '../../lib/cn';
import { inputClasses } from '../../components/ui/field';
import { counterText } from './review';

/**
 * A labelled text box with its hint, a "123/500" counter beside the hint, and its error. The
 * counter is described by the box rather than announced on every keystroke.
 */
export function CountedTextarea({
  id,
  label,
  hint,
  value,
  onChange,
  error,
  textareaRef,
  max = REVIEW_MAX,
  rows = 5,
}: {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  textareaRef?: Ref<HTMLTextAreaElement>;
  max?: number;
  rows?: number;
}) {
  const describedBy = [`${id}-hint`, `${id}-count`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-semibold text-slate-100">
        {label}
      </label>
      <textarea
        id={id}
        ref={textareaRef}
        rows={rows}
        maxLength={max}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={cn(inputClasses, error ? 'border-red-400 ring-1 ring-red-400' : 'border-slate-300')}
      />
      <div className="mt-1 flex justify-between gap-3 text-sm text-slate-300">
        <p id={`${id}-hint`}>{hint}</p>
        <p id={`${id}-count`} className="shrink-0 tabular-nums">
          {counterText(value.length, max)}
        </p>
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
