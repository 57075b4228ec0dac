import type { DynamoDBStreamEvent, SNSEvent } from 'aws-lambda';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { outboundMailEntity } from '../../shared/entities';
import { handler, outboundMail } from './send-mail';
import { handler as recordFeedback } from './record-mail-feedback';
import { mailRepo } from './data/mail';
import { newId } from '../common/ids';
import type { MailMessage } from './message';
import { mailsTo, outboxRecord, setLease } from '../testing/mail';

const sample = JSON.parse(readFileSync(new URL('../../events/send-mail.json', import.meta.url), 'utf8')) as DynamoDBStreamEvent;

const address = () => `mail-${newId()}@example.com`;

function message(to: string, overrides: Partial<MailMessage> = {}): MailMessage {
  const subjectId = newId();
  return {
    kind: 'company-application-received',
    subjectId,
    to,
    subject: "We received Bright Clean's application",
    paragraphs: ['Hi Jordan,', 'Thank you for applying on behalf of Bright Clean.'],
    action: { label: 'Check your application', path: `/apply/company/status/${subjectId}` },
    ...overrides,
  };
}

/** A mail put in the outbox, and the record its put makes on the table's stream. */
async function queued(input: MailMessage) {
  expect(await mailRepo.queue(input)).toBe(true);
  return outboxRecord(input.kind, input.subjectId);
}

/** An SNS delivery of one SES report, as the configuration set's topic sends it. */
const snsOf = (report: unknown): SNSEvent =>
  ({ Records: [{ EventSource: 'aws:sns', EventVersion: '1.0', EventSubscriptionArn: 'arn', Sns: { Message: JSON.stringify(report) } }] }) as unknown as SNSEvent;

describe('send-mail', () => {
  it('sends a new outbox mail through SES to its address, as text and HTML with the link on the site, and marks it sent', async () => {
    // Prepare
    const to = address();
    const input = message(to);
    const record = await queued(input);

    // Act
    const result = await handler({ Records: [record] });

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    const [sent, ...more] = await mailsTo(to);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ from: 'Fixly <no-reply@fixly.test>', subject: input.subject, configurationSet: 'marketplace-local', tags: { kind: 'company-application-received' } });
    const link = `http://localhost:3000/apply/company/status/${input.subjectId}`;
    expect(sent!.text).toContain('Thank you for applying on behalf of Bright Clean.');
    expect(sent!.text).toContain(`Check your application: ${link}`);
    expect(sent!.html).toContain(`<a href="${link}"`);
    const stored = await mailRepo.find(input.kind, input.subjectId);
    expect(stored).toMatchObject({ state: 'sent', messageId: sent!.messageId });
    expect(stored).not.toHaveProperty('leaseUntil');
  });

  it('sends once when the stream delivers the record twice, in one batch or again later', async () => {
    // Prepare
    const to = address();
    const record = await queued(message(to));

    // Act
    const first = await handler({ Records: [record, record] });
    const again = await handler({ Records: [record] });

    // Assess
    expect(first).toEqual({ batchItemFailures: [] });
    expect(again).toEqual({ batchItemFailures: [] });
    expect(await mailsTo(to)).toHaveLength(1);
  });

  it('waits for a lease another sender holds when it ends within the run, then sends the mail once', async () => {
    // Prepare: a sender claimed the mail and died; its lease ends within the second.
    const to = address();
    const input = message(to);
    const record = await queued(input);
    await mailRepo.claim(input.kind, input.subjectId);
    await setLease(input.kind, input.subjectId, Math.floor(Date.now() / 1000));

    // Act
    const result = await handler({ Records: [record] });

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    expect(await mailsTo(to)).toHaveLength(1);
    expect(await mailRepo.find(input.kind, input.subjectId)).toMatchObject({ state: 'sent' });
  });

  it('reports a record whose mail is under a lease longer than the run, and sends the mail once when the retry comes after it', async () => {
    // Prepare: a sender claimed the mail (60 s) and died.
    const to = address();
    const input = message(to);
    const record = await queued(input);
    const claimed = await mailRepo.claim(input.kind, input.subjectId);

    // Act
    const meeting = await handler({ Records: [record] });
    const sentBefore = (await mailsTo(to)).length;
    await setLease(input.kind, input.subjectId, claimed!.leaseUntil! - 120);
    const retried = await handler({ Records: [record] });
    const again = await handler({ Records: [record] });

    // Assess
    expect(meeting).toEqual({ batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber }] });
    expect(sentBefore).toBe(0);
    expect(retried).toEqual({ batchItemFailures: [] });
    expect(again).toEqual({ batchItemFailures: [] });
    expect(await mailsTo(to)).toHaveLength(1);
  });

  it('writes one outbox mail per event: queueing the same event again writes nothing', async () => {
    // Prepare
    const input = message(address());
    await mailRepo.queue(input);

    // Act
    const second = await mailRepo.queue({ ...input, subject: 'Another subject' });

    // Assess
    expect(second).toBe(false);
    expect(await mailRepo.find(input.kind, input.subjectId)).toMatchObject({ subject: input.subject, state: 'pending' });
  });

  it('escapes what people typed in the HTML, and keeps it as typed in the text', async () => {
    // Prepare
    const to = address();
    const record = await queued(message(to, { paragraphs: ['Hi <script>alert(1)</script> & "friends",'] }));

    // Act
    await handler({ Records: [record] });

    // Assess
    const [sent] = await mailsTo(to);
    expect(sent!.html).toContain('Hi &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot;,');
    expect(sent!.html).not.toContain('<script>');
    expect(sent!.text).toContain('Hi <script>alert(1)</script> & "friends",');
  });

  it('does not mail an address that bounced for good, and settles its mail as suppressed', async () => {
    // Prepare
    const to = address();
    await recordFeedback(snsOf({ eventType: 'Bounce', bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [{ emailAddress: to.toUpperCase() }] } }));
    const input = message(to);
    const record = await queued(input);

    // Act
    const result = await handler({ Records: [record] });

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    expect(await mailsTo(to)).toEqual([]);
    expect(await mailRepo.find(input.kind, input.subjectId)).toMatchObject({ state: 'suppressed' });
  });

  it('does not mail an address that complained', async () => {
    // Prepare
    const to = address();
    await recordFeedback(snsOf({ eventType: 'Complaint', complaint: { complaintFeedbackType: 'abuse', complainedRecipients: [{ emailAddress: to }] } }));
    const record = await queued(message(to));

    // Act
    await handler({ Records: [record] });

    // Assess
    expect(await mailsTo(to)).toEqual([]);
  });

  it('settles a mail SES refuses (no address at all) as refused, without asking the stream to retry it', async () => {
    // Prepare
    const input = message('jordan at example.com');
    const record = await queued(input);

    // Act
    const result = await handler({ Records: [record] });

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    const stored = await mailRepo.find(input.kind, input.subjectId);
    expect(stored).toMatchObject({ state: 'refused', refusal: expect.stringContaining('BadRequestException') });
    // Settled: out of the sweeper's index of unsent mail.
    expect(outboundMailEntity.indexes.unsent.keysOf(stored!)).toBeUndefined();
  });

  it('settles a mail whose link is not a path on the site as refused, sending nothing', async () => {
    // Prepare
    const to = address();
    const input = message(to, { action: { label: 'Open', path: '//evil.example/phish' } });
    const record = await queued(input);

    // Act
    const result = await handler({ Records: [record] });

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    expect(await mailsTo(to)).toEqual([]);
    expect(await mailRepo.find(input.kind, input.subjectId)).toMatchObject({ state: 'refused' });
  });

  it('ignores a record that is not a new outbox mail', async () => {
    // Prepare
    const [record] = sample.Records;
    const modified = { ...record!, eventName: 'MODIFY' as const };
    const notification = { ...record!, dynamodb: { ...record!.dynamodb, NewImage: { ...record!.dynamodb!.NewImage, entity: { S: 'notification' } } } };

    // Act
    const picked = [outboundMail(record!), outboundMail(modified), outboundMail(notification)];

    // Assess
    expect(picked[0]).toMatchObject({ kind: 'company-application-received', to: 'jordan@brightclean.example' });
    expect(picked.slice(1)).toEqual([undefined, undefined]);
  });
});
