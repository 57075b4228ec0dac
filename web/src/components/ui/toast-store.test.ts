import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, getToastLayer, getToasts, openToastLayer, subscribeToastLayer, subscribeToasts, toast } from './toast-store';

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

describe('toast layer', () => {
  const dialog = (name: string) => ({ name }) as unknown as HTMLElement;

  it('shows toasts in the newest open modal dialog, and over the page once none is open', () => {
    // Prepare
    const hire = dialog('hire');
    const review = dialog('review');
    const seen: (HTMLElement | null)[] = [];
    const unsubscribe = subscribeToastLayer(() => seen.push(getToastLayer()));

    // Act
    const closeHire = openToastLayer(hire);
    const closeReview = openToastLayer(review);
    closeReview();
    closeHire();
    unsubscribe();

    // Assess
    expect(seen).toEqual([hire, review, hire, null]);
    expect(getToastLayer()).toBeNull();
  });

  it('forgets a dialog closed out of order, and a second close changes nothing', () => {
    // Prepare
    const first = dialog('first');
    const second = dialog('second');
    const closeFirst = openToastLayer(first);
    const closeSecond = openToastLayer(second);

    // Act
    closeFirst();
    closeFirst();
    const afterFirst = getToastLayer();
    closeSecond();

    // Assess
    expect(afterFirst).toBe(second);
    expect(getToastLayer()).toBeNull();
  });
});
