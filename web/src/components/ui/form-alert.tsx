import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

const tones = {
  error: 'bg-red-950/70 text-red-200',
  success: 'bg-green-950/70 text-green-100',
} as const;

/**
 * A form's own message, above its fields: what went wrong that no single field owns (the "_" of a
 * 400's fields, a refusal, a network failure), or that it worked. An error is read out at once
 * (role alert), a success when the reader is idle (role status). With no message it renders
 * nothing, so a form can always place it. `title` adds a bold first line; `className` only places it
 * (margins, grid columns).
 */
export function FormAlert({
  message,
  title,
  tone = 'error',
  className,
}: {
  message: ReactNode;
  title?: ReactNode;
  tone?: keyof typeof tones;
  className?: string;
}) {
  if (message === null || message === undefined || message === false || message === '') return null;
  const role = tone === 'error' ? 'alert' : 'status';
  const classes = cn('rounded-lg p-3 text-sm font-medium', tones[tone], className);
  if (!title) {
    return (
      <p role={role} className={classes}>
        {message}
      </p>
    );
  }
  return (
    <div role={role} className={classes}>
      <p className="font-semibold">{title}</p>
      <p>{message}</p>
    </div>
  );
}
