import { useEffect } from 'react';

const BRAND = 'Fixly';

/** Sets the tab title for a screen, e.g. "Book a Service · Fixly". */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${BRAND}` : `${BRAND} — Book trusted home-service pros in seconds`;
  }, [title]);
}
