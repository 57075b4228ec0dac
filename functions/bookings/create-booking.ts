import { routeByName } from '../../shared/routes';
import { bookingInputSchema } from '../../shared/schemas/booking';
import { categories } from '../../shared/categories';
import { DEFAULT_JOB_SIZE } from '../../shared/job-sizes';
import { checkedRequestedTime, estimateForJob } from './estimates';
import { bookingsRepo, toBooking } from './data/bookings';
import { jobItem, jobsRepo } from '../jobs/data/jobs';
import { createAndDispatch } from '../jobs/dispatch';
import { reply, http } from '../common/http';
import { createIds, earlierResult } from '../common/idempotency';
import { logger } from '../common/logger';
import { existingCustomer } from '../common/auth/customer';
import { takeCreation } from '../common/creation-limits';
import { customerEmailPut } from '../common/auth/customers';
import { outboxPuts } from '../mail/data/mail';
import { bookingReceived } from '../mail/messages/customers';
import { refuseSuppressedAddresses } from '../mail/deliverable';

/** A booking and its job, written together; dispatch starts at once. */
export const handler = http(routeByName('create-booking'), bookingInputSchema, async ({ body, event }) => {
  const requestedTime = checkedRequestedTime(body.requestedTime);
  await refuseSuppressedAddresses({ email: body.email });
  const known = await existingCustomer(event);
  await takeCreation('job', event, known);
  const ids = await createIds(event, known);
  const { customer } = ids;
  // A booking's address is not located: the trade's pros anywhere price it.
  const estimate = await estimateForJob({ category: body.category, size: body.jobSize ?? DEFAULT_JOB_SIZE, origin: null, requestedTime });
  const createdAt = new Date().toISOString();
  // An empty email is no email: neither the booking nor its job keeps one.
  const { email: typedEmail, ...fields } = body;
  const email = typedEmail || undefined;
  const booking = bookingsRepo.newItem({ ...fields, ...(email ? { email } : {}), id: ids.id('booking'), jobId: ids.id('booking-job'), customerId: customer.id, createdAt });
  const service = categories.find((c) => c.slug === body.category)?.name ?? body.category;
  // The "booking received" mail and the address's record are stored with the booking, so one booking makes one mail.
  const received = bookingReceived(booking, service);
  const cookies = { cookies: customer.setCookie ? [customer.setCookie] : [] };
  let job;
  try {
    job = await createAndDispatch(
      jobItem({
        id: booking.jobId!,
        kind: 'booking',
        bookingId: booking.id,
        customerId: customer.id,
        category: body.category,
        service,
        customerName: body.name,
        customerPhone: body.phone,
        customerEmail: email,
        address: body.address,
        description: body.details ?? '',
        requestedTime,
        estimate,
        createdAt,
      }),
      [bookingsRepo.putAction(booking), ...outboxPuts(received), ...(email ? [customerEmailPut(email, customer.id)] : [])],
    );
  } catch (error) {
    // The same submission again: the booking its first call made.
    const earlier = await earlierResult(ids, error, async () => {
      const stored = await bookingsRepo.findById(booking.id);
      return stored?.customerId === customer.id ? stored : undefined;
    });
    return reply(201, toBooking(earlier, await jobsRepo.findById(earlier.jobId!)), cookies);
  }
  logger.info('Booking created', { bookingNumber: booking.id.slice(-8), category: booking.category });
  return reply(201, toBooking(booking, job), cookies);
});
