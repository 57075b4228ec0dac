/**
 * The single table: its key schema, indexes and every key builder. The CDK table, the local
 * runtime's CreateTable and the repositories all read this module, so they cannot drift apart.
 */
export const table = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  /** Generic sparse GSIs: an item appears in one only when it carries that index's keys. */
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ],
} as const;

export type IndexName = (typeof table.indexes)[number]['name'];

export const keys = {
  catalog: () => ({ pk: 'CATALOG', sk: 'SERVICE#' }),
  service: (slug: string) => ({ pk: 'CATALOG', sk: `SERVICE#${slug}` }),
  booking: (id: string) => ({ pk: `BOOKING#${id}`, sk: 'BOOKING' }),
  /** The one owner account: a conditional put on this key makes setup happen exactly once. */
  owner: () => ({ pk: 'OWNER', sk: 'OWNER' }),
  /** Sessions and worker tokens, stored by the SHA-256 of the secret, never the secret. */
  session: (tokenHash: string) => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),
  /** gsi1: every session of one person, to end them all when the password changes. */
  sessionsOf: (role: string, subjectId: string, createdAt = '') => ({
    gsi1pk: `SESSIONS#${role}#${subjectId}`,
    gsi1sk: `SESSION#${createdAt}`,
  }),
  /** Device cookies (a browser that has logged in to an account before), by the SHA-256 of the secret. */
  deviceCookie: (secretHash: string) => ({ pk: `DEVICE#${secretHash}`, sk: 'DEVICE' }),
  /** gsi1: every device cookie of one person, to end them all when the password changes. */
  deviceCookiesOf: (role: string, subjectId: string, createdAt = '') => ({
    gsi1pk: `DEVICES#${role}#${subjectId}`,
    gsi1sk: `DEVICE#${createdAt}`,
  }),
  /** Failed-login counters, per name and address. */
  throttle: (scope: string, key: string) => ({ pk: `THROTTLE#${scope}#${key}`, sk: 'THROTTLE' }),
  /** One per email address: makes "one application or account per email" a conditional put. */
  email: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
  workerApplication: (id: string) => ({ pk: `APPLICATION#${id}`, sk: 'APPLICATION' }),
  companyApplication: (id: string) => ({ pk: `COMPANY_APPLICATION#${id}`, sk: 'APPLICATION' }),
  /** gsi1: applications of one kind by status (pending first for the owner), oldest first. */
  applicationsByStatus: (kind: 'worker' | 'company', status: string, submittedAt = '') => ({
    gsi1pk: `APPLICATIONS#${kind}#${status}`,
    gsi1sk: `APPLICATION#${submittedAt}`,
  }),
  /** The worker's profile; the password hash lives apart (ACCOUNT) so profile reads never carry it. */
  worker: (id: string) => ({ pk: `WORKER#${id}`, sk: 'PROFILE' }),
  workerAccount: (id: string) => ({ pk: `WORKER#${id}`, sk: 'ACCOUNT' }),
  /** gsi2: every worker, newest last (the owner's workers tab). */
  allWorkers: (createdAt = '') => ({ gsi2pk: 'WORKERS', gsi2sk: `WORKER#${createdAt}` }),
  /**
   * A customer identity the server issued: a browser's customer cookie counts only when this
   * exists, so a cookie value nobody issued is a new visitor.
   */
  customer: (id: string) => ({ pk: `CUSTOMER#${id}`, sk: 'IDENTITY' }),
  /** The customer a first-time visitor's Idempotency-Key minted (by the key's hash), for the retry. */
  customerByKey: (keyHash: string) => ({ pk: `CUSTOMERKEY#${keyHash}`, sk: 'CUSTOMERKEY' }),
  /** The service address a customer saved: the one place the worker list measures from. */
  customerServiceAddress: (customerId: string) => ({ pk: `CUSTOMER#${customerId}`, sk: 'SERVICE_ADDRESS' }),
  /** gsi1: a customer's bookings, newest last. */
  customerBookings: (customerId: string, createdAt = '') => ({
    gsi1pk: `CUSTOMER#${customerId}`,
    gsi1sk: `BOOKING#${createdAt}`,
  }),
  /** One per company contact email (apart from keys.email: a company contact may also be a worker). */
  companyEmail: (email: string) => ({ pk: `COMPANY_EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
  /** gsi3: every job, oldest first (the owner's jobs tab and analytics). */
  allJobs: (createdAt = '') => ({ gsi3pk: 'JOBS', gsi3sk: `JOB#${createdAt}` }),
  /**
   * A job (a booking's, a service request's or a hire's). A service request and a hire ARE their
   * job: one item, so what the customer sees and what the worker moves cannot disagree.
   */
  job: (id: string) => ({ pk: `JOB#${id}`, sk: 'JOB' }),
  /** gsi1: a customer's service requests and hires, newest last (beside their bookings). */
  customerRequests: (customerId: string, createdAt = '') => ({
    gsi1pk: `CUSTOMER#${customerId}`,
    gsi1sk: `REQUEST#${createdAt}`,
  }),
  /**
   * gsi2, sparse: jobs whose search ended with nobody, by trade and when it ended, so a pro of that
   * trade coming on call finds the recent ones nearby with one Query. A job leaves it when it is
   * offered again, accepted or cancelled (it never holds a worker's gsi2 keys at the same time).
   */
  unfilledJobs: (category: string, since = '') => ({ gsi2pk: `UNFILLED#${category}`, gsi2sk: since }),
  /**
   * The number a screen shows (a job id's last 8 characters, upper case) and the digits of the phone
   * it was made with: /track finds a job by the two together. One item per job; a Query on the
   * number and phone finds it even if two ids ever share their last 8 characters.
   */
  trackingNumber: (number: string, phoneDigits = '', jobId = '') => ({
    pk: `TRACKNO#${number.toUpperCase()}`,
    sk: `PHONE#${phoneDigits}#${jobId}`,
  }),
  /** gsi2: the jobs a worker holds (ACTIVE#acceptedAt) and has finished (DONE#endedAt). */
  workerJobs: (workerId: string, group: 'ACTIVE' | 'DONE' | '' = '', at = '') => ({
    gsi2pk: `WORKERJOBS#${workerId}`,
    gsi2sk: group ? `${group}#${at}` : '',
  }),
  /** An offer made to a worker, beside their profile; the job item stays the authority on it. */
  workerOffer: (workerId: string, jobId = '') => ({ pk: `WORKER#${workerId}`, sk: `OFFER#${jobId}` }),
  /**
   * The sparse dispatch index: one entry per available, clocked-in worker and category, in the
   * partition of its coarse geohash cell, sorted by its fine geohash, so the workers near a point
   * are a few Queries with begins_with on the sort key, whatever the number of workers.
   */
  dispatchCell: (category: string, cell: string, geohash = '', workerId = '') => ({
    pk: `DISPATCH#${category}#${cell}`,
    sk: geohash ? `${geohash}#${workerId}` : '',
  }),
  /** The same workers by category alone, for jobs whose location is unknown and workers who shared none. */
  dispatchCategory: (category: string, workerId = '') => ({ pk: `DISPATCH#${category}`, sk: `WORKER#${workerId}` }),
  /** A worker's probation records (stored schema: worker_probations), beside the profile. */
  workerProbation: (workerId: string, startDate = '') => ({ pk: `WORKER#${workerId}`, sk: `PROBATION#${startDate}` }),
  /** An invoice (one per job: the job carries its id, set once). */
  invoice: (id: string) => ({ pk: `INVOICE#${id}`, sk: 'INVOICE' }),
  /** gsi1: a customer's invoices, beside their requests, newest last. */
  customerInvoices: (customerId: string, createdAt = '') => ({
    gsi1pk: `CUSTOMER#${customerId}`,
    gsi1sk: `INVOICE#${createdAt}`,
  }),
  /** gsi2: a worker's invoices, newest last (apart from WORKERJOBS#, whose sort keys are job groups). */
  workerInvoices: (workerId: string, createdAt = '') => ({
    gsi2pk: `WORKERINVOICES#${workerId}`,
    gsi2sk: `INVOICE#${createdAt}`,
  }),
  /** gsi3: every invoice, newest last (the owner's view of /invoices). */
  allInvoices: (createdAt = '') => ({ gsi3pk: 'INVOICES', gsi3sk: `INVOICE#${createdAt}` }),
  /** A Stripe webhook event already handled: its conditional put makes a second delivery a no-op. */
  stripeEvent: (eventId: string) => ({ pk: `STRIPE_EVENT#${eventId}`, sk: 'EVENT' }),
  /** That an urgent notification's push went out (or is going out), so a retried or replayed stream batch does not alert twice. */
  pushDelivery: (notificationId: string) => ({ pk: `PUSH_DELIVERY#${notificationId}`, sk: 'DELIVERY' }),
  /** Which worker a connected account belongs to, for account.updated webhooks. */
  stripeAccount: (accountId: string) => ({ pk: `STRIPE_ACCOUNT#${accountId}`, sk: 'ACCOUNT' }),
  /** A /ws connection: who it is (role and id), its rooms, its message window; expires (TTL). */
  connection: (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'CONN' }),
  /** A room's members: one item per connection, so fan-out is one Query (never a Scan). */
  roomMember: (room: string, connectionId = '') => ({ pk: `ROOM#${room}`, sk: `CONN#${connectionId}` }),
  /** A person's notifications, newest last; they expire after 30 days (TTL). */
  notification: (role: string, userId: string, createdAt = '', id = '') => ({
    pk: `NOTIFS#${role}#${userId}`,
    sk: createdAt ? `NOTIF#${createdAt}#${id}` : 'NOTIF#',
  }),
  /** A person's web push subscriptions, by the SHA-256 of the endpoint. */
  pushSubscription: (role: string, userId: string, endpointHash = '') => ({ pk: `PUSH#${role}#${userId}`, sk: `SUB#${endpointHash}` }),
  /** Which person an endpoint belongs to, for unsubscribe and verify (the browser sends only the endpoint). */
  pushEndpoint: (endpointHash: string) => ({ pk: `PUSHENDPOINT#${endpointHash}`, sk: 'ENDPOINT' }),
  /** The latest location fix of a worker on a job (only the latest is kept). */
  jobLocation: (jobId: string) => ({ pk: `JOB#${jobId}`, sk: 'LOCATION' }),
  /** Cached geocoder answers, by normalised query; they expire (TTL). */
  geocode: (query: string) => ({ pk: `GEOCODE#${query}`, sk: 'GEOCODE' }),
  /** A worker's compliance document (every version is its own item; the id is its upload's id). */
  document: (id: string) => ({ pk: `DOCUMENT#${id}`, sk: 'DOCUMENT' }),
  /** gsi1: a worker's documents, every version, oldest first. */
  workerDocuments: (workerId: string, createdAt = '', id = '') => ({
    gsi1pk: `WORKERDOCS#${workerId}`,
    gsi1sk: createdAt ? `DOC#${createdAt}#${id}` : 'DOC#',
  }),
  /** gsi2, sparse: every worker's current documents (latest version, not deleted), oldest first (the owner's list). */
  allDocuments: (createdAt = '', id = '') => ({ gsi2pk: 'DOCUMENTS', gsi2sk: createdAt ? `DOC#${createdAt}#${id}` : 'DOC#' }),
  /**
   * gsi3, sparse: documents that may still expire, by expiration date (YYYY-MM-DD), so the daily job
   * reads only those due for a reminder or expiry with one Query; an expired, rejected or deleted
   * document leaves it.
   */
  documentExpiry: (expirationDate = '', id = '') => ({
    gsi3pk: 'DOCEXPIRY',
    gsi3sk: expirationDate ? `${expirationDate}#${id}` : '',
  }),
  /** An upload a worker was given a presigned POST for, waiting to be confirmed; expires (TTL). */
  documentUpload: (uploadId: string) => ({ pk: `DOCUPLOAD#${uploadId}`, sk: 'UPLOAD' }),
  /** gsi3, sparse: uploads not yet confirmed, oldest first, so the daily purge finds the abandoned ones' files. */
  openDocumentUploads: (createdAt = '', uploadId = '') => ({
    gsi3pk: 'DOCUPLOADS',
    gsi3sk: createdAt ? `${createdAt}#${uploadId}` : '',
  }),
  /** The access log of one document: every view and download, oldest first. */
  documentAccess: (documentId: string, at = '', id = '') => ({
    pk: `DOCACCESS#${documentId}`,
    sk: at ? `ACCESS#${at}#${id}` : 'ACCESS#',
  }),
};
