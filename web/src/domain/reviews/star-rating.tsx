import { Star } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { ratingLabel } from '../../../../shared/schemas/review';
import { cn } from '../../lib/cn';
import { STAR_VALUES, nextStar, starLabel } from './review';

/**
 * Five stars as a radio group: one tab stop (the chosen star, or the first while none is), arrow
 * keys move and choose as native radios do, and the chosen star's word shows beside the stars.
 * The group is named "Rating" by its visible label.
 */
export function StarRating({
  id,
  value,
  onChange,
  error,
  required = false,
  tabStopRef,
}: {
  id: string;
  value: number | null;
  onChange: (rating: number) => void;
  error?: string;
  required?: boolean;
  /** Given the star that holds the tab stop, so a form can focus the group when it is invalid. */
  tabStopRef?: (el: HTMLButtonElement | null) => void;
}) {
  const stars = useRef<(HTMLButtonElement | null)[]>([]);
  // Pointing at a star previews it; only a click or a key chooses.
  const [preview, setPreview] = useState<number | null>(null);
  const lit = preview ?? value ?? 0;
  const tabStop = value ?? 1;
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;

  const onKeyDown = (star: number) => (event: KeyboardEvent<HTMLButtonElement>) => {
    const next = nextStar(star, event.key);
    if (next === null) return;
    event.preventDefault();
    onChange(next);
    stars.current[next - 1]?.focus();
  };

  return (
    <div>
      <p id={labelId} className="mb-1.5 text-sm font-semibold text-slate-100">
        Rating
      </p>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <div
          role="radiogroup"
          aria-labelledby={labelId}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="flex gap-1"
          onMouseLeave={() => setPreview(null)}
        >
          {STAR_VALUES.map((star) => (
            <button
              key={star}
              ref={(el) => {
                stars.current[star - 1] = el;
                if (star === tabStop) tabStopRef?.(el);
              }}
              type="button"
              role="radio"
              aria-checked={value === star}
              aria-label={starLabel(star)}
              tabIndex={star === tabStop ? 0 : -1}
              onClick={() => onChange(star)}
              onKeyDown={onKeyDown(star)}
              onMouseEnter={() => setPreview(star)}
              className="rounded-md p-1 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300 focus-visible:ring-offset-2 focus-visible:ring-offset-slate-900"
            >
              <Star
                aria-hidden="true"
                className={cn('size-8 transition-colors', star <= lit ? 'fill-amber-400 text-amber-400' : 'text-slate-400')}
              />
            </button>
          ))}
        </div>
        {/* The word repeats the checked star's name for sighted readers; screen readers hear it from the star. */}
        <span aria-hidden="true" className={cn('text-sm font-semibold', value ? 'text-amber-200' : 'text-slate-300')}>
          {value ? ratingLabel(value) : 'Choose 1 to 5 stars'}
        </span>
      </div>
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
