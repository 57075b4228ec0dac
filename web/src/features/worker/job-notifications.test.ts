import { describe, expect, it } from 'vitest';
import { refreshesHeldJobs, refreshesOffers } from './job-notifications';

describe('worker notifications that refresh the dashboard', () => {
  it('refetches offers for a new job or an offer', () => {
    // Act
    const results = ['job_created', 'job_offered', 'offer_expired', 'payment_received', 'job_completed'].map(refreshesOffers);

    // Assess
    expect(results).toEqual([true, true, true, false, false]);
  });

  it('refetches held jobs when one of them changes, not for a new offer or a payment', () => {
    // Act
    const results = ['job_cancelled', 'job_completed', 'system_alert', 'job_created', 'payment_received'].map(refreshesHeldJobs);

    // Assess
    expect(results).toEqual([true, true, true, false, false]);
  });
});
