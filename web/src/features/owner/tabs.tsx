import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface TabDef<K extends string> {
  key: K;
  label: string;
  /** A small count or marker after the label. */
  extra?: ReactNode;
}

/**
 * WAI-ARIA tabs with automatic activation: one tab stop for the list, arrow keys (and Home/End)
 * move between tabs, the panel follows.
 */
export function Tabs<K extends string>({
  label,
  tabs,
  active,
  onChange,
  children,
}: {
  label: string;
  tabs: readonly TabDef<K>[];
  active: K;
  onChange: (key: K) => void;
  children: ReactNode;
}) {
  const base = useId();
  const refs = useRef<Partial<Record<K, HTMLButtonElement | null>>>({});
  const tabId = (key: K) => `${base}-tab-${key}`;
  const panelId = (key: K) => `${base}-panel-${key}`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.key === active);
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? index === last ? 0 : index + 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? index === 0 ? last : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    const key = tabs[next]!.key;
    onChange(key);
    refs.current[key]?.focus();
  };

  return (
    <div>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="grid grid-cols-2 gap-1 rounded-xl border border-white/10 bg-slate-900/90 p-1 sm:flex"
      >
        {tabs.map((tab) => {
          const selected = tab.key === active;
          return (
            <button
              key={tab.key}
              ref={(el) => {
                refs.current[tab.key] = el;
              }}
              type="button"
              role="tab"
              id={tabId(tab.key)}
              aria-selected={selected}
              aria-controls={selected ? panelId(tab.key) : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(tab.key)}
              className={cn(
                'inline-flex flex-1 items-center justify-center gap-2 whitespace-nowrap rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300',
                selected ? 'bg-amber-400 text-slate-950' : 'text-slate-100 hover:bg-white/10',
              )}
            >
              {tab.label}
              {tab.extra}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={panelId(active)}
        aria-labelledby={tabId(active)}
        tabIndex={0}
        className="mt-6 rounded-xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300"
      >
        {children}
      </div>
    </div>
  );
}
