/**
 * A tiny toast store: `toast()` works from anywhere (event handlers, mutations), <Toaster/> shows
 * what it holds. Only one toast is visible at a time: a newer toast replaces the
 * older one.
 */
export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before it closes; the provider's default is 5 s. */
  duration?: number;
}

export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

export const TOAST_LIMIT = 1;
export const TOAST_DEFAULT_DURATION_MS = 5000;
/** How long a closed toast stays mounted so its exit animation can play. */
const REMOVE_DELAY_MS = 300;

type Listener = () => void;

let items: readonly ToastItem[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function set(next: readonly ToastItem[]): void {
  items = next;
  for (const listener of listeners) listener();
}

export function toast(input: ToastInput): { id: number; dismiss: () => void } {
  const id = nextId++;
  set([{ ...input, id, open: true }, ...items].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

export function dismissToast(id: number): void {
  if (!items.some((item) => item.id === id && item.open)) return;
  set(items.map((item) => (item.id === id ? { ...item, open: false } : item)));
  setTimeout(() => set(items.filter((item) => item.id !== id)), REMOVE_DELAY_MS);
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly ToastItem[] {
  return items;
}

/**
 * Where the toast viewport lives. An open modal <dialog> sits in the browser's top layer above
 * everything else, and showModal() makes the rest of the page inert: a toast outside it would be
 * painted under its backdrop (or above it, but still unclickable and unheard, as a popover is).
 * So each modal dialog registers itself while open and the viewport moves into the newest one.
 */
let layers: readonly HTMLElement[] = [];
const layerListeners = new Set<Listener>();

function setLayers(next: readonly HTMLElement[]): void {
  layers = next;
  for (const listener of layerListeners) listener();
}

/** Registers an open modal dialog as the place toasts show; the returned function unregisters it. */
export function openToastLayer(element: HTMLElement): () => void {
  setLayers([...layers.filter((layer) => layer !== element), element]);
  return () => {
    if (layers.includes(element)) setLayers(layers.filter((layer) => layer !== element));
  };
}

/** The newest open modal dialog, or null: toasts then show over the page itself. */
export function getToastLayer(): HTMLElement | null {
  return layers[layers.length - 1] ?? null;
}

export function subscribeToastLayer(listener: Listener): () => void {
  layerListeners.add(listener);
  return () => layerListeners.delete(listener);
}
