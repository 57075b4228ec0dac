import type { BookingStatus } from '../../../../shared/domain/booking-status';
import type { BadgeTone } from '../../components/ui/badge';

/** Badge colours and readable labels per booking status. */
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
