import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

export type BadgeTone = 'blue' | 'yellow' | 'amber' | 'orange' | 'green' | 'red' | 'slate';

const tones: Record<BadgeTone, string> = {
  blue: 'bg-blue-100 text-blue-900 ring-blue-300',
  yellow: 'bg-yellow-100 text-yellow-900 ring-yellow-300',
  amber: 'bg-amber-100 text-amber-900 ring-amber-400',
  orange: 'bg-orange-100 text-orange-900 ring-orange-300',
  green: 'bg-green-100 text-green-900 ring-green-300',
  red: 'bg-red-100 text-red-900 ring-red-300',
  slate: 'bg-slate-100 text-slate-900 ring-slate-300',
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
}

export function Badge({ tone = 'slate', className, ...props }: BadgeProps) {
  return (
    <span
      className={cn('inline-flex items-center rounded-full px-3 py-1 text-xs font-semibold ring-1 ring-inset', tones[tone], className)}
      {...props}
    />
  );
}
