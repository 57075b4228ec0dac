import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';
import { Skeleton } from './skeleton';

/**
 * What a screen or a list shows while its data loads: placeholder blocks, and the label as a status
 * for screen readers (the blocks are hidden from them). `children` are the screen's own placeholder
 * shape; without them, `rows` blocks of `rowClassName`. `showLabel` also shows the label on screen,
 * for a whole page where a bare placeholder would say too little.
 */
export function Loading({
  label,
  showLabel = false,
  rows = 2,
  rowClassName = 'h-24 w-full',
  className,
  children,
}: {
  label: string;
  showLabel?: boolean;
  rows?: number;
  rowClassName?: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div aria-busy="true" className={cn('grid gap-3', className)}>
      <p role="status" className={showLabel ? 'text-slate-200' : 'sr-only'}>
        {label}
      </p>
      {children ?? Array.from({ length: rows }, (_, row) => <Skeleton key={row} className={rowClassName} />)}
    </div>
  );
}

/**
 * A load that failed: the screen's message, an optional detail (the server's reason, or what is
 * shown instead), and Retry, which reads "Retrying..." and waits while `retrying`. Without
 * `onRetry` there is nothing to try again and no button. `className` only places it (margins).
 */
export function LoadError({
  message,
  detail,
  onRetry,
  retrying = false,
  className,
}: {
  message: ReactNode;
  detail?: ReactNode;
  onRetry?: () => void;
  retrying?: boolean;
  className?: string;
}) {
  return (
    <div role="alert" className={cn('flex flex-wrap items-center justify-between gap-3 rounded-lg bg-red-950/70 p-4 text-sm text-red-100', className)}>
      <p>
        <span className="font-semibold">{message}</span>
        {detail ? <span className="block text-red-200">{detail}</span> : null}
      </p>
      {onRetry ? (
        <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
          {retrying ? 'Retrying...' : 'Retry'}
        </Button>
      ) : null}
    </div>
  );
}
