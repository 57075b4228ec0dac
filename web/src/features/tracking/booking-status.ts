import { bookingTimeline, type BookingStatus } from '../../../../shared/domain/booking-status';
import type { BadgeTone } from '../../components/ui/badge';

/** Badge colours and readable labels (spec section 4). */
export const statusBadge: Record<BookingStatus, { label: string; tone: BadgeTone }> = {
  new: { label: 'New', tone: 'blue' },
  confirmed: { label: 'Confirmed', tone: 'yellow' },
  on_the_way: { label: 'On the Way', tone: 'orange' },
  completed: { label: 'Completed', tone: 'green' },
  cancelled: { label: 'Cancelled', tone: 'red' },
};

export function statusBadgeOf(status: string): { label: string; tone: BadgeTone } {
  return (statusBadge as Record<string, { label: string; tone: BadgeTone } | undefined>)[status] ?? { label: status, tone: 'slate' };
}

export type StepState = 'done' | 'upcoming';

export interface TimelineStep {
  status: BookingStatus;
  label: string;
  state: StepState;
  current: boolean;
}

/**
 * The four-step timeline: steps up to and including the current one are done and the current one
 * is highlighted. A cancelled (or unknown) status sits outside the timeline: nothing is done.
 */
export function timelineSteps(status: string): TimelineStep[] {
  const index = bookingTimeline.findIndex((step) => step.status === status);
  return bookingTimeline.map((step, i) => ({
    status: step.status,
    label: step.label,
    state: index >= 0 && i <= index ? 'done' : 'upcoming',
    current: i === index,
  }));
}
