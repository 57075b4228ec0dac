import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { cn } from '../../lib/cn';
import { dismissToast, getToastLayer, getToasts, subscribeToastLayer, subscribeToasts, TOAST_DEFAULT_DURATION_MS } from './toast-store';

const noLayer = () => null;

/**
 * Shows the toast store: one at a time, 5 s by default, swipe right past 50 px to dismiss, F8
 * focuses the region (Radix's default hotkey), at most 420 px wide from md up, above any open dialog.
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  // While a modal dialog is open the viewport lives inside it: the dialog is in the top layer and
  // the rest of the page is inert, so a toast anywhere else would be hidden, unclickable and unheard.
  const layer = useSyncExternalStore(subscribeToastLayer, getToastLayer, noLayer);
  // This loads lazily, often because of the first toast, and the viewport is made anew when it
  // moves into or out of a dialog. A live region announces what is added to it, not what it holds
  // when it appears, so each new viewport is painted empty once before it shows any toast.
  const [paintedIn, setPaintedIn] = useState<HTMLElement | null | undefined>(undefined);
  useEffect(() => {
    const frame = window.requestAnimationFrame(() => setPaintedIn(layer));
    return () => window.cancelAnimationFrame(frame);
  }, [layer]);
  const viewport = (
    <ToastPrimitive.Viewport
      aria-live="polite"
      aria-relevant="additions text"
      className="fixed bottom-0 right-0 z-[100] m-0 flex max-h-screen w-full list-none flex-col-reverse gap-2 p-4 outline-none md:max-w-[420px]" />
  );
  return (
    <ToastPrimitive.Provider duration={TOAST_DEFAULT_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
      {(paintedIn === layer ? toasts : []).map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          open={item.open}
          duration={item.duration}
          type={item.variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
          className={cn(
            'group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-xl border p-4 pr-10 shadow-2xl',
            // Sliding in and fading out only for those who have not asked for reduced motion.
            'motion-safe:data-[state=open]:animate-[toast-in_150ms_ease-out] motion-safe:data-[state=closed]:animate-[toast-out_150ms_ease-in]',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform',
            'motion-safe:data-[swipe=end]:animate-[toast-swipe-out_100ms_ease-out]',
            item.variant === 'destructive' ? 'border-red-700 bg-red-700 text-white' : 'border-slate-200 bg-white text-slate-900',
          )}
        >
          {/* The viewport is the live region that reads the toast out; Radix's own announcer, which
              repeats the text in a hidden copy for a second, is told to skip it. */}
          <div className="grid gap-1" data-radix-toast-announce-exclude="">
            <ToastPrimitive.Title className="text-sm font-semibold">{item.title}</ToastPrimitive.Title>
            {item.description ? (
              <ToastPrimitive.Description className="text-sm opacity-90">{item.description}</ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className={cn(
              'absolute right-2 top-2 rounded-md p-1 focus-visible:outline-none focus-visible:ring-2',
              item.variant === 'destructive' ? 'text-white hover:bg-red-600 focus-visible:ring-white' : 'text-slate-600 hover:bg-slate-100 focus-visible:ring-slate-900',
            )}
          >
            <X aria-hidden="true" className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {layer ? createPortal(viewport, layer) : viewport}
    </ToastPrimitive.Provider>
  );
}
