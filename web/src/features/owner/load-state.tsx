import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';

/** What a list shows while it loads: placeholder rows and a status line for screen readers. */
export function Loading({ label }: { label: string }) {
  return (
    <div className="grid gap-3">
      <p role="status" className="sr-only">
        {label}
      </p>
      <Skeleton className="h-24 w-full" />
      <Skeleton className="h-24 w-full" />
    </div>
  );
}

/** A load failure with the spec's message and a way to try again. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Card role="alert" className="flex flex-wrap items-center justify-between gap-3 border-red-400/40">
      <p className="font-medium text-red-200">{message}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </Card>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Card className="text-center">
      <p className="text-lg font-semibold text-white">{title}</p>
      {children ? <p className="mt-2 text-slate-300">{children}</p> : null}
    </Card>
  );
}
