import {
  Broom,
  Ellipsis,
  Hammer,
  HardHat,
  Paintbrush,
  ShieldCheck,
  Sprout,
  Trees,
  Waves,
  WashingMachine,
  Wrench,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import { useEffect, useRef } from 'react';
import { requestServices, type RequestService } from '../../../../shared/domain/requests';

const serviceIcons: Record<RequestService, LucideIcon> = {
  'Insurance Claims': ShieldCheck,
  'Contract Workers': HardHat,
  Plumbing: Wrench,
  Electrical: Zap,
  Carpentry: Hammer,
  Painting: Paintbrush,
  Cleaning: Broom,
  'Pool Repair/Cleaner': Waves,
  'Landscaping Repair/Landscapers': Trees,
  'Appliance Repair': WashingMachine,
  Gardening: Sprout,
  Other: Ellipsis,
};

/**
 * The worker-type picker. `focusService` is the choice to put focus back on when the customer
 * returns from the form, so keyboard users land where they left; on first paint nothing is focused.
 */
export function ServicePicker({ onChoose, focusService }: { onChoose: (service: RequestService) => void; focusService?: RequestService }) {
  const buttons = useRef<Partial<Record<RequestService, HTMLButtonElement | null>>>({});
  useEffect(() => {
    if (focusService) buttons.current[focusService]?.focus();
  }, [focusService]);

  return (
    <div>
      <h2 id="request-flow-title" className="text-2xl font-bold text-white sm:text-3xl">
        What do you need?
      </h2>
      <p className="mt-2 text-slate-200">Choose the kind of professional and tell us about the job. The nearest available pro gets your request.</p>
      <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3">
        {requestServices.map((service) => {
          const Icon = serviceIcons[service];
          return (
            <li key={service}>
              <button
                type="button"
                ref={(el) => {
                  buttons.current[service] = el;
                }}
                onClick={() => onChoose(service)}
                className={
                  'flex h-full w-full flex-col items-center gap-2 rounded-xl bg-slate-950/60 p-4 text-center text-sm font-semibold text-white ring-1 ring-white/10 ' +
                  'transition-colors hover:bg-slate-800 hover:ring-amber-300/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300'
                }
              >
                <span className="flex size-11 items-center justify-center rounded-full bg-amber-400 text-slate-950">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                {service}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
