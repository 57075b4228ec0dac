import { describe, expect, it } from 'vitest';
import { handler as approveWorker } from './approve-worker';
import { asOwner, pendingApplication } from './lib/testing/applications';
import { invoke, sampleEvent } from './lib/testing/events';
import { handler } from './list-workers';

describe('GET /api/admin/workers/all', () => {
  it('lists approved workers in the owner\'s view', async () => {
    // Prepare
    const { id, body } = await pendingApplication();
    const approved = await invoke(approveWorker, await asOwner('approve-worker', { id }));

    // Act
    const res = await invoke(handler, await asOwner('list-workers'));

    // Assess
    expect(res.status).toBe(200);
    const worker = res.body.find((w: { id: string }) => w.id === approved.body.workerId);
    expect(worker).toEqual({
      id: approved.body.workerId,
      fullName: body.fullName,
      email: body.emailAddress,
      phone: body.phoneNumber,
      createdAt: expect.any(String),
      yearsExp: body.yearsExperience,
      hourlyRate: body.hourlyRate,
      categories: body.servicesProvided,
      status: 'active',
      isAvailable: false,
      strikes: 0,
    });
    // Keys, not any text: random ids and emails may spell "ssn".
    expect(JSON.stringify(res.body)).not.toMatch(/"(?:[^"]*ssn[^"]*|passwordHash|pk)"\s*:/i);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('list-workers'))).status).toBe(401);
  });
});
