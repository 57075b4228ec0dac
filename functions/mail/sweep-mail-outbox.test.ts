import { afterEach, describe, expect, it, vi } from 'vitest';
import { outboundMailEntity } from '../../shared/entities';
import { handler as sendMail } from './send-mail';
import { handler } from './sweep-mail-outbox';
import { MAIL_SWEEP_GRACE_SECONDS, mailRepo } from './data/mail';
import { newId } from '../common/ids';
import type { MailMessage } from './message';
import { sampleEvent } from '../testing/events';
import { mailsTo, outboxRecord, queuedAgo, setLease } from '../testing/mail';

const address = () => `sweep-${newId()}@example.com`;
const sweep = () => handler(sampleEvent('sweep-mail-outbox'));
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** Older than any mail the other test files put in the shared table, so a sweep's reads (oldest first) reach it. */
const LONG_AGO = 24 * 3600;

function message(to: string): MailMessage {
  const subjectId = newId();
  return {
    kind: 'company-application-received',
    subjectId,
    to,
    subject: "We received Bright Clean's application",
    paragraphs: ['Hi Jordan,', 'Thank you for applying on behalf of Bright Clean.'],
    action: { label: 'Check your application', path: `/apply/company/status/${subjectId}` },
  };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('sweep-mail-outbox', () => {
  it('sends a mail still pending after its grace once, and takes it out of the index of unsent mail', async () => {
    // Prepare: its stream record was lost (a crash between the write and the delivery).
    const to = address();
    const input = message(to);
    const queued = await queuedAgo(input, LONG_AGO);

    // Act
    await sweep();
    await sweep();

    // Assess
    expect(outboundMailEntity.indexes.unsent.keysOf(queued)?.pk).toMatch(/^MAILQ#[0-7]$/);
    const [sent, ...more] = await mailsTo(to);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ subject: input.subject });
    const stored = await mailRepo.find(input.kind, input.subjectId);
    expect(stored).toMatchObject({ state: 'sent', messageId: sent!.messageId });
    expect(outboundMailEntity.indexes.unsent.keysOf(stored!)).toBeUndefined();
  });

  it('leaves a pending mail within its grace to the stream', async () => {
    // Prepare
    const to = address();
    const input = message(to);
    await queuedAgo(input, MAIL_SWEEP_GRACE_SECONDS - 10);

    // Act
    await sweep();

    // Assess
    expect(await mailsTo(to)).toEqual([]);
    const pending = await mailRepo.find(input.kind, input.subjectId);
    expect(pending).toMatchObject({ state: 'pending' });
    expect(outboundMailEntity.indexes.unsent.keysOf(pending!)?.pk).toMatch(/^MAILQ#/);
  });

  it('sends once a mail whose sender died holding its claim, after the lease lapsed', async () => {
    // Prepare: claimed long ago by a sender that never came back.
    const to = address();
    const input = message(to);
    await queuedAgo(input, LONG_AGO);
    expect(await mailRepo.claim(input.kind, input.subjectId)).toBeDefined();
    await setLease(input.kind, input.subjectId, nowSeconds() - LONG_AGO);

    // Act
    await sweep();
    await sweep();

    // Assess
    expect(await mailsTo(to)).toHaveLength(1);
    const stored = await mailRepo.find(input.kind, input.subjectId);
    expect(stored).toMatchObject({ state: 'sent' });
    expect(stored).not.toHaveProperty('leaseUntil');
    expect(outboundMailEntity.indexes.unsent.keysOf(stored!)).toBeUndefined();
  });

  it('leaves a mail alone while another sender holds a live lease on it', async () => {
    // Prepare
    const to = address();
    const input = message(to);
    await queuedAgo(input, LONG_AGO);
    const claimed = await mailRepo.claim(input.kind, input.subjectId);

    // Act
    await sweep();

    // Assess
    expect(await mailsTo(to)).toEqual([]);
    expect(await mailRepo.find(input.kind, input.subjectId)).toMatchObject({ state: 'sending', leaseUntil: claimed!.leaseUntil });
  });

  it('sends each mail once when two sweeps run at the same time', async () => {
    // Prepare
    const addresses = Array.from({ length: 6 }, address);
    for (const to of addresses) await queuedAgo(message(to), LONG_AGO);

    // Act
    await Promise.all([sweep(), sweep()]);

    // Assess
    const counts = await Promise.all(addresses.map(async (to) => (await mailsTo(to)).length));
    expect(counts).toEqual(addresses.map(() => 1));
  });

  it('sends a mail once when the sweep and the late stream record reach it together', async () => {
    // Prepare
    const to = address();
    const input = message(to);
    await queuedAgo(input, LONG_AGO);
    const record = await outboxRecord(input.kind, input.subjectId);

    // Act
    const [, streamed] = await Promise.all([sweep(), sendMail({ Records: [record] })]);
    const again = await sendMail({ Records: [record] });

    // Assess
    expect(await mailsTo(to)).toHaveLength(1);
    expect(again).toEqual({ batchItemFailures: [] });
    expect(streamed.batchItemFailures.length).toBeLessThanOrEqual(1);
  });

  it('on a local restart, sends at once what the stack before it left: a mail just queued and one it was sending', async () => {
    // Prepare: the stack died a moment after queueing one mail and claiming another.
    const [fresh, halfSent] = [message(address()), message(address())];
    await queuedAgo(fresh, 1);
    await queuedAgo(halfSent, 1);
    await mailRepo.claim(halfSent.kind, halfSent.subjectId);
    const restartedAt = new Date(Date.now() + 1000).toISOString();

    // Act
    await handler({ ...sampleEvent('sweep-mail-outbox'), sendersGoneBefore: restartedAt });
    await handler({ ...sampleEvent('sweep-mail-outbox'), sendersGoneBefore: restartedAt });

    // Assess
    expect(await mailsTo(fresh.to)).toHaveLength(1);
    expect(await mailsTo(halfSent.to)).toHaveLength(1);
  });

  it('leaves a lease taken since the restart to its sender', async () => {
    // Prepare
    const input = message(address());
    await queuedAgo(input, LONG_AGO);
    const restartedAt = new Date(Date.now() - 2000).toISOString();
    await mailRepo.claim(input.kind, input.subjectId);

    // Act
    await handler({ ...sampleEvent('sweep-mail-outbox'), sendersGoneBefore: restartedAt });

    // Assess
    expect(await mailsTo(input.to)).toEqual([]);
    expect(await mailRepo.find(input.kind, input.subjectId)).toMatchObject({ state: 'sending' });
  });

  it('ignores a restart time outside the local runtime, where no sender can be known to be gone', async () => {
    // Prepare
    vi.resetModules();
    vi.stubEnv('LOCAL_RUNTIME', undefined);
    const { sweepInput: cloudInput } = await import('./sweep-mail-outbox');

    // Act
    const given = cloudInput({ source: 'aws.scheduler', sendersGoneBefore: new Date().toISOString() });

    // Assess
    expect(given).toEqual({});
    expect(cloudInput({ sendersGoneBefore: 'yesterday' })).toBeUndefined();
  });
});
