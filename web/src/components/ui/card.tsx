import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

/** A readable panel over the background video. */
export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn('rounded-2xl border border-white/10 bg-slate-900/90 p-6 text-slate-100 shadow-xl backdrop-blur-sm', className)}
      {...props}
    />
  );
}
