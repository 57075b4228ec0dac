import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { openToastLayer } from './toast-store';

const focusableSelector =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The Tab stops inside: a control taken out of the tab order (a radio group's other stars) is not one. */
function tabStops(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(focusableSelector)).filter((el) => el.tabIndex >= 0);
}

/**
 * A modal on the native <dialog>: showModal() makes the page behind inert and Escape closes it;
 * Tab also wraps inside (so focus never leaves for the browser's chrome), and focus goes back to
 * whatever opened it. Mounted open; the owner unmounts it to close.
 */
export function ModalDialog({ title, description, onClose, children }: { title: string; description?: ReactNode; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    // StrictMode runs this twice: the second time focus is already inside, so the opener is kept.
    const active = document.activeElement;
    if (active instanceof HTMLElement && !dialog?.contains(active)) opener.current = active;
    if (dialog && !dialog.open) {
      dialog.showModal();
      // showModal() focuses the first focusable control, which can be one outside the tab order.
      const active = document.activeElement;
      if (!(active instanceof HTMLElement) || !dialog.contains(active) || active.tabIndex < 0) tabStops(dialog)[0]?.focus();
    }
    // Everything outside is inert now: toasts raised while it is open must show inside it.
    const closeLayer = dialog ? openToastLayer(dialog) : undefined;
    // Unmounting removes the dialog from the page (and the top layer) without a "close" event.
    return () => {
      closeLayer?.();
      opener.current?.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !ref.current) return;
    const focusable = tabStops(ref.current);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      // Escape fires "cancel" then "close"; a close by any means hands control back to the owner.
      onClose={onClose}
      onKeyDown={onKeyDown}
      className="m-auto max-h-[90dvh] w-[min(100%-2rem,40rem)] overflow-y-auto rounded-2xl border border-white/10 bg-slate-900 p-6 text-slate-100 shadow-2xl backdrop:bg-slate-950/80 backdrop:backdrop-blur-sm"
    >
      <h2 id={titleId} className="text-2xl font-bold text-white">
        {title}
      </h2>
      {description ? (
        <p id={descriptionId} className="mt-2 text-sm text-slate-300">
          {description}
        </p>
      ) : null}
      <div className="mt-5">{children}</div>
    </dialog>
  );
}
