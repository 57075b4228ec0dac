import { Bell, BellOff, BellRing, Send } from 'lucide-react';
import { useId } from 'react';
import { pushStateLabels, pushTexts } from '../../lib/push';
import { cn } from '../../lib/cn';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { usePushControl, type PushControlModel } from './use-push';

const tones: Record<keyof typeof pushStateLabels, BadgeTone> = {
  unsupported: 'slate',
  blocked: 'red',
  subscribed: 'green',
  available: 'blue',
};

/**
 * The push control (in the notification panel): the state as a label —
 * unsupported, Blocked, Push Enabled, available — and the button that fits it: enable, or send a
 * test and disable. Works for whoever is signed in (worker token, owner session, customer cookie).
 * `model` is for tests and stories; screens use it without props.
 */
export function PushControl({ className, model }: { className?: string; model?: PushControlModel }) {
  const own = usePushControl();
  const push = model ?? own;
  const headingId = useId();
  const hintId = useId();
  const { state, busy } = push;

  return (
    <div role="group" aria-labelledby={headingId} aria-describedby={state === 'blocked' ? hintId : undefined} aria-busy={busy !== null} className={cn('flex flex-col gap-2', className)} data-testid="push-control">
      <div className="flex flex-wrap items-center gap-2">
        <span id={headingId} className="flex items-center gap-2 text-sm font-semibold text-white">
          {state === 'subscribed' ? <BellRing aria-hidden="true" className="size-4 text-amber-300" /> : state === 'blocked' || state === 'unsupported' ? <BellOff aria-hidden="true" className="size-4 text-slate-400" /> : <Bell aria-hidden="true" className="size-4 text-amber-300" />}
          Push notifications
        </span>
        {/* Announced as it changes (after enabling or disabling). */}
        <span role="status" aria-live="polite">
          {state === 'checking' ? <span className="text-xs text-slate-400">Checking…</span> : <Badge tone={tones[state]}>{pushStateLabels[state]}</Badge>}
        </span>
      </div>

      {state === 'available' ? (
        <div>
          <Button size="sm" onClick={() => void push.enable()} disabled={busy !== null}>
            <Bell aria-hidden="true" className="size-4" /> {busy === 'enable' ? 'Enabling…' : 'Enable push notifications'}
          </Button>
        </div>
      ) : null}

      {state === 'subscribed' ? (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="secondary" onClick={() => void push.test()} disabled={busy !== null}>
            <Send aria-hidden="true" className="size-4" /> {busy === 'test' ? 'Sending…' : 'Send test notification'}
          </Button>
          <Button size="sm" variant="outline" onClick={() => void push.disable()} disabled={busy !== null}>
            <BellOff aria-hidden="true" className="size-4" /> {busy === 'disable' ? 'Disabling…' : 'Disable push'}
          </Button>
        </div>
      ) : null}

      {state === 'blocked' ? (
        <p id={hintId} className="text-xs text-slate-300">
          {pushTexts.blockedHint}
        </p>
      ) : null}
      {state === 'unsupported' ? <p className="text-xs text-slate-300">{pushTexts.unsupported}.</p> : null}
    </div>
  );
}
