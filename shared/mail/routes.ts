import type { RecurringDef, StreamConsumerDef } from '../route-types';

export const mailRecurring = [
  {
    // The outbox mail the stream did not send: a delivery lost, a sender that died holding its claim.
    name: 'sweep-mail-outbox',
    cron: 'cron(0/2 * * * ? *)',
    everyMinutes: 2,
    table: 'readwrite',
    mail: true,
    description: 'Every 2 minutes: sends the outbox mail the table stream did not (a lost delivery, a sender that died)',
  },
] as const satisfies readonly RecurringDef[];

export const mailStreamConsumers = [
  {
    // Mail is sent after the change it tells about is stored: the outbox item written with that
    // change is what the stream hands over (functions/mail/send-mail.ts), so no user's call waits on SES.
    name: 'send-mail',
    table: 'readwrite',
    mail: true,
    filters: [
      {
        eventName: ['INSERT'],
        dynamodb: { NewImage: { entity: { S: ['outbound-mail'] } } },
      },
    ],
  },
] as const satisfies readonly StreamConsumerDef[];
