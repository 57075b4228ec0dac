import { describe, expect, it } from 'vitest';
import { CREW_EN_ROUTE_POLL_MS, crewActionOf, crewFinished, crewMemberNote, crewNowOf, trackPollMs } from './crew';
import { finishedMember, member, searchingMember } from './crew-fixtures';


describe("the crew page's poll", () => {
  it("follows the lead's own poll while the lead is not final", () => {
    expect(trackPollMs({ crew: null }, false, 5000)).toBe(5000);
  });

  it('keeps asking every 15 s while a pro of the crew is on the way', () => {
    expect(trackPollMs({ crew: [finishedMember(1), member(2)] }, true, 5000)).toBe(CREW_EN_ROUTE_POLL_MS);
  });

  it('stops once the lead is final and no pro travels', () => {
    expect(trackPollMs({ crew: [finishedMember(1), finishedMember(2)] }, true, 5000)).toBe(false);
  });
});

describe("a crew's actions", () => {
  it('never pays the lead\'s own invoice alone', () => {
    expect(crewActionOf({ crew: [finishedMember(1), finishedMember(2)], crewLeadId: null }, 'pay')).toBe('none');
  });

  it('offers verification once every pro who holds a place finished', () => {
    const crew = [finishedMember(1), finishedMember(2), searchingMember(3)];

    expect(crewFinished(crew)).toBe(true);
    expect(crewActionOf({ crew, crewLeadId: null }, 'verify')).toBe('verify');
  });

  it('holds verification while a pro is still working', () => {
    expect(crewActionOf({ crew: [finishedMember(1), member(2, { jobState: 'in_progress' })], crewLeadId: null }, 'verify')).toBe('none');
  });

  it("leaves verifying, paying and cancelling to the request's page on a member's page", () => {
    const onMember = { crew: null, crewLeadId: 'job-1' };

    expect((['verify', 'pay', 'cancel', 'retry'] as const).map((action) => crewActionOf(onMember, action))).toEqual(['none', 'none', 'none', 'none']);
    expect(crewActionOf(onMember, 'rate')).toBe('rate');
  });

  it('leaves one pro\'s actions as they are', () => {
    expect(crewActionOf({ crew: null, crewLeadId: null }, 'pay')).toBe('pay');
  });

  it("tells a member's page where the crew is verified and paid", () => {
    expect(crewMemberNote(3)).toBe("Part of a request for 3 pros — verify and pay on the request's page.");
  });
});

describe("the crew's headline", () => {
  const lead = { tone: 'info' as const, headline: 'Pro Person 1 is on the way', lines: [] };
  const base = {
    jobState: 'en_route' as const,
    status: 'In Progress' as const,
    verification: { pending: false, workHours: null, status: null, notes: null, at: null, message: '' },
    invoice: null,
    workerCount: 3,
  };

  it('counts the pros found while a place is still open', () => {
    expect(crewNowOf(base, [member(1), member(2), searchingMember(3)], lead)).toEqual({ tone: 'info', headline: '2 of 3 pros found', lines: ['2 on the way.'] });
  });

  it('asks to verify the whole crew once all finished', () => {
    const completed = { ...base, jobState: 'completed' as const, status: 'Completed' as const, verification: { ...base.verification, pending: true } };

    expect(crewNowOf(completed, [finishedMember(1), finishedMember(2)], lead).headline).toBe("Please verify the crew's work");
  });

  it("keeps the lead's word while nobody holds a place", () => {
    expect(crewNowOf(base, [searchingMember(1), searchingMember(2)], lead)).toBe(lead);
  });
});
