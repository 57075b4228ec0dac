import { describe, expect, it } from 'vitest';
import { handler as approveWorker } from './approve-worker';
import { asOwner, pendingApplication } from './lib/testing/applications';
import { invoke, sampleEvent } from './lib/testing/events';
import { handler } from './list-pending-workers';

describe('GET /api/admin/workers/pending', () => {
  it('lists pending applications oldest first in the owner\'s view, without SSN or storage keys', async () => {
    // Prepare
    const first = await pendingApplication({ ssnLastFour: '4417' });
    const second = await pendingApplication({ ssnLastFour: '4417' });

    // Act
    const res = await invoke(handler, await asOwner('list-pending-workers'));

    // Assess
    expect(res.status).toBe(200);
    const ids = res.body.map((a: { id: string }) => a.id);
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    const mine = res.body.find((a: { id: string }) => a.id === first.id);
    expect(mine).toEqual({
      id: first.id,
      fullName: first.body.fullName,
      email: first.body.emailAddress,
      phone: first.body.phoneNumber,
      address: first.body.homeAddress,
      yearsExp: first.body.yearsExperience,
      categories: first.body.servicesProvided,
      hourlyRate: first.body.hourlyRate,
      workingHours: first.body.workingHours,
      availableSameDay: first.body.availableSameDay,
      submittedAt: expect.any(String),
      documents: ['idFront', 'idBack', 'selfie'],
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/"[^"]*ssn[^"]*"\s*:/i);
    expect(text).not.toMatch(/(?<![\w-])4417(?![\w-])/);
    expect(text).not.toContain('uploads/');
  });

  it('drops an application once it is reviewed', async () => {
    const { id } = await pendingApplication();
    await invoke(approveWorker, await asOwner('approve-worker', { id }));

    const res = await invoke(handler, await asOwner('list-pending-workers'));

    expect(res.body.map((a: { id: string }) => a.id)).not.toContain(id);
  });

  it('answers 401 without the owner session', async () => {
    const res = await invoke(handler, sampleEvent('list-pending-workers'));

    expect(res.status).toBe(401);
  });
});
