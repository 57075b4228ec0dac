import { CircleCheck } from 'lucide-react';
import { useCallback, useEffect, useState, type ReactNode } from 'react';

/** The success banner hides after 5 s. */
export const SUCCESS_BANNER_MS = 5000;

/**
 * The request form's success banner state: `announce` shows it, and each new success restarts its
 * 5 s (a counter, so two submissions in a row do not share one timer).
 */
export function useRequestSuccess() {
  const [submitted, setSubmitted] = useState(0);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!submitted) return;
    setVisible(true);
    const timer = setTimeout(() => setVisible(false), SUCCESS_BANNER_MS);
    return () => clearTimeout(timer);
  }, [submitted]);
  const announce = useCallback(() => setSubmitted((n) => n + 1), []);
  return { visible, announce };
}

/** A status region that is always in the page, so screen readers hear the banner when it appears. */
export function RequestSuccessBanner({ visible, children }: { visible: boolean; children: ReactNode }) {
  return (
    <div role="status">
      {visible ? (
        <p className="mb-6 flex items-start gap-3 rounded-lg border border-green-400/40 bg-green-950/70 p-4 font-medium text-green-100">
          <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-green-300" />
          <span>{children}</span>
        </p>
      ) : null}
    </div>
  );
}
