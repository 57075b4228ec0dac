import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

/** A pulsing placeholder block; hidden from assistive technology (pair it with a text status). */
export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-slate-700/60', className)} {...props} />;
}
