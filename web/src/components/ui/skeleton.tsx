import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

/** A placeholder block, pulsing unless motion is reduced; hidden from assistive technology (pair it with a text status). */
export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div aria-hidden="true" className={cn('motion-safe:animate-pulse rounded-md bg-slate-700/60', className)} {...props} />;
}
