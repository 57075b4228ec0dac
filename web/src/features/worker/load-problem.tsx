import { Button } from '../../components/ui/button';

/** A failed load with the spec's message, an optional detail and a way to try again. */
export function LoadProblem({ message, detail, onRetry, busy }: { message: string; detail?: string; onRetry: () => void; busy: boolean }) {
  return (
    <div role="alert" className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-lg bg-red-950/70 p-4 text-sm text-red-100">
      <p>
        <span className="font-semibold">{message}</span>
        {detail ? <span className="block text-red-200">{detail}</span> : null}
      </p>
      <Button variant="outline" size="sm" onClick={onRetry} disabled={busy}>
        {busy ? 'Retrying...' : 'Retry'}
      </Button>
    </div>
  );
}
