import type { SNSEvent } from 'aws-lambda';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { handler, suppressionsOf } from './record-mail-feedback';
import { mailRepo } from './data/mail';
import { newId } from '../common/ids';

/** SNS's delivery of one SES bounce report from the configuration set's topic: a permanent bounce. */
const sample = JSON.parse(readFileSync(new URL('../../events/record-mail-feedback.json', import.meta.url), 'utf8')) as SNSEvent;
const sampleReport = () => JSON.parse(sample.Records[0]!.Sns.Message) as { bounce: { bouncedRecipients: { emailAddress: string }[] } };

/** The sample delivery, reporting `report` instead. */
const deliveryOf = (report: unknown): SNSEvent => ({
  Records: [{ ...sample.Records[0]!, Sns: { ...sample.Records[0]!.Sns, Message: JSON.stringify(report) } }],
});

const address = () => `feedback-${newId()}@example.com`;

describe('record-mail-feedback', () => {
  it('marks the recipient of a permanent bounce as not to be mailed again, with the bounce kind', async () => {
    // Prepare: the sample report, about an address of this test
    const to = address();
    const report = sampleReport();
    report.bounce.bouncedRecipients = [{ ...report.bounce.bouncedRecipients[0]!, emailAddress: to }];

    // Act
    await handler(deliveryOf(report));

    // Assess
    expect(await mailRepo.isSuppressed(to)).toBe(true);
    expect(await mailRepo.isSuppressed(to.toUpperCase())).toBe(true);
  });

  it('reads the recipients of a permanent bounce and of a complaint, and nobody of a transient bounce or of a report it cannot read', () => {
    // Act
    const permanent = suppressionsOf(sample.Records[0]!.Sns.Message);
    const transient = suppressionsOf(JSON.stringify({ eventType: 'Bounce', bounce: { bounceType: 'Transient', bouncedRecipients: [{ emailAddress: 'b@example.com' }] } }));
    const complaint = suppressionsOf(JSON.stringify({ notificationType: 'Complaint', complaint: { complainedRecipients: [{ emailAddress: 'c@example.com' }] } }));
    const garbage = suppressionsOf('not json');

    // Assess
    expect(permanent).toEqual([{ email: 'no-such-mailbox@brightclean.example', reason: 'bounce', detail: 'NoEmail' }]);
    expect(transient).toEqual([]);
    expect(complaint).toEqual([{ email: 'c@example.com', reason: 'complaint' }]);
    expect(garbage).toEqual([]);
  });

  it('leaves an address that bounced only for now free to be mailed', async () => {
    // Prepare
    const to = address();

    // Act
    await handler(deliveryOf({ eventType: 'Bounce', bounce: { bounceType: 'Transient', bouncedRecipients: [{ emailAddress: to }] } }));

    // Assess
    expect(await mailRepo.isSuppressed(to)).toBe(false);
  });
});
