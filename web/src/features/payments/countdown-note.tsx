import { Button } from '../../components/ui/button';
import { secondsPhrase } from '../../lib/countdown';

/**
 * The visible countdown of a payment screen, with a way to stay. Not a live region: a number read
 * out every second would drown the rest of the page.
 */
export function CountdownNote({ where, seconds, stayed, onStay }: { where: string; seconds: number; stayed: boolean; onStay: () => void }) {
  if (stayed) return <p className="text-sm text-slate-300">You can stay on this page as long as you like.</p>;
  return (
    <div className="flex flex-wrap items-center justify-center gap-3 text-sm text-slate-300">
      <p data-testid="redirect-countdown">
        Taking you to {where} in <span className="font-semibold tabular-nums text-white">{secondsPhrase(seconds)}</span>.
      </p>
      <Button variant="ghost" size="sm" onClick={onStay}>
        Stay on this page
      </Button>
    </div>
  );
}
