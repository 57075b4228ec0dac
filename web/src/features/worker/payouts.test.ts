import { describe, expect, it } from 'vitest';
import { heldText, payoutButtonLabel, payoutReturnOf, payoutReturnToast, payoutStatusLabel, withoutPayoutReturn } from './payouts';

describe('payout status texts', () => {
  it('names each onboarding standing', () => {
    expect(payoutStatusLabel('not_started')).toBe('Not set up');
    expect(payoutStatusLabel('pending')).toBe('Onboarding not finished');
    expect(payoutStatusLabel('enabled')).toBe('Payouts enabled');
  });

  it('offers to start, then to finish, and nothing once payouts flow', () => {
    expect(payoutButtonLabel('not_started')).toBe('Set up payouts');
    expect(payoutButtonLabel('pending')).toBe('Finish setting up payouts');
    expect(payoutButtonLabel('enabled')).toBeNull();
  });
});

describe('heldText', () => {
  it('says how much waits for onboarding, and for how many jobs', () => {
    expect(heldText('$120.00', 2, 'pending')).toBe('$120.00 from 2 paid jobs is held until you finish setting up payouts.');
    expect(heldText('$45.00', 1, 'not_started')).toBe('$45.00 from 1 paid job is held until you finish setting up payouts.');
  });

  it('says nothing when nothing is held', () => {
    expect(heldText('$0.00', 0, 'not_started')).toBeNull();
  });

  it('says held money is on its way once payouts are enabled', () => {
    expect(heldText('$45.00', 1, 'enabled')).toBe('$45.00 from 1 paid job is on its way to your connected account.');
  });
});

describe('the way back from onboarding', () => {
  it('reads return and refresh from the address', () => {
    expect(payoutReturnOf('?payouts=return')).toBe('return');
    expect(payoutReturnOf(new URLSearchParams('payouts=refresh&x=1'))).toBe('refresh');
  });

  it('ignores a missing or unknown value', () => {
    expect(payoutReturnOf('')).toBeNull();
    expect(payoutReturnOf('?payouts=done')).toBeNull();
  });

  it('drops only the payouts parameter from the address', () => {
    // Act
    const rest = withoutPayoutReturn('?payouts=return&tab=history');
    // Assess
    expect(rest.toString()).toBe('tab=history');
  });

  it('celebrates only an account that is enabled', () => {
    expect(payoutReturnToast('return', 'enabled').title).toBe('Payouts set up');
    expect(payoutReturnToast('return', 'pending').title).toBe('Payout setup not finished');
  });

  it('says an expired link needs starting again', () => {
    expect(payoutReturnToast('refresh', 'pending').title).toBe('Setup link expired');
  });
});
