import type { MailMessage } from '../message';

/**
 * Mails whose link is a credential: whoever holds the link signs in with it, so the mail says what
 * it is for, how long it works, and that it can be ignored by someone who did not ask for it.
 */

/**
 * To an address someone typed into "Find my requests", when requests were made with it: the
 * single-use link that gathers them into the browser that opens it. The secret travels in the
 * link's fragment (#token=), which browsers never send to a server, so no server log sees it.
 * `linkId` names the event (the outbox key), never the secret.
 */
export function requestsLink(to: string, linkId: string, secret: string, seconds: number): MailMessage {
  const minutes = Math.round(seconds / 60);
  return {
    kind: 'requests-link',
    subjectId: linkId,
    to,
    subject: 'Your link to your Fixly requests',
    paragraphs: [
      'Hi,',
      'Someone asked for the requests made with this address on Fixly. If it was you, open the link below in the browser you asked from: your bookings, requests, invoices and ratings will be there, together with what that browser already had. Opened in any other browser, it only shows them, each with its tracking link.',
      `The link works once, for ${minutes} minutes. If you did not ask for it, ignore this mail: nothing changes until the link is opened.`,
    ],
    action: { label: 'Show my requests', path: `/find-my-requests/open#token=${secret}` },
    secretLinkSeconds: seconds,
  };
}
