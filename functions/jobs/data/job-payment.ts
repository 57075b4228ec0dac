import { jobEntity } from '../../../shared/entities';
import { increment, updateOf } from '../../common/data/expressions';
import { tryUpdate } from '../../common/data/write';
import { jobHistory, systemActor } from './job-history';
import { declareTableUse } from '../../../shared/entities';

/** The job's side of its payment: paid once, or back among the open jobs while a payment failed. */
export const jobPayment = {
  /** Payment settled: verified → paid, once (a repeated or late event finds it paid and changes nothing). */
  async markPaid(jobId: string, now: string): Promise<boolean> {
    const paid = await tryUpdate(
      updateOf(jobEntity, jobEntity.key(jobId), {
        // Nothing left for the owner to act on.
        set: { state: 'paid', paidAt: now, version: increment(), updatedAt: now },
        remove: ['paymentFailedAt'],
        if: (c) => c.eq('state', 'verified'),
      }),
    );
    if (paid) await jobHistory.record(jobId, { type: 'paid', actor: systemActor, at: now });
    return paid !== undefined;
  },

  /**
   * A payment attempt failed: the job comes back among the open jobs, so the owner's "Needs
   * attention" finds it, until it is paid. Only while verified and unpaid, and once per failure time.
   */
  async markPaymentFailed(jobId: string, now: string): Promise<boolean> {
    const marked = await tryUpdate(
      updateOf(jobEntity, jobEntity.key(jobId), {
        set: { paymentFailedAt: now, updatedAt: now },
        known: { state: 'verified' },
        if: (c) => c.eq('state', 'verified'),
      }),
    );
    if (marked) await jobHistory.record(jobId, { type: 'payment_failed', actor: systemActor, at: now });
    return marked !== undefined;
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobEntity], writes: [jobEntity] });
