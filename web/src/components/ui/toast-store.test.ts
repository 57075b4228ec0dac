import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, getToasts, subscribeToasts, toast } from './toast-store';

afterEach(() => {
  for (const item of getToasts()) dismissToast(item.id);
  vi.useRealTimers();
});

describe('toast store', () => {
  it('keeps only the newest toast', () => {
    toast({ title: 'First' });
    const second = toast({ title: 'Second', variant: 'destructive' });
    expect(getToasts()).toEqual([{ id: second.id, title: 'Second', variant: 'destructive', open: true }]);
  });

  it('closes, then removes a dismissed toast and tells subscribers', () => {
    vi.useFakeTimers();
    const seen: number[] = [];
    const unsubscribe = subscribeToasts(() => seen.push(getToasts().length));
    const shown = toast({ title: 'Request sent!' });
    shown.dismiss();
    expect(getToasts()[0]?.open).toBe(false);
    vi.runAllTimers();
    expect(getToasts()).toEqual([]);
    expect(seen).toEqual([1, 1, 0]);
    unsubscribe();
  });
});
