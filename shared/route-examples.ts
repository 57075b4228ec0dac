import type { BodyOf, ParamsInputOf, QueryInputOf, RouteName } from './routes';

/**
 * One example request per route, beside the manifest: what its sample event (events/<name>.json)
 * carries besides the route itself. `npm run events` writes the events from the manifest and these
 * (infra/testing/sample-events.ts); a test fails when a committed event differs from what it would
 * write, so the two never drift. Typed by the manifest: a body is the route's body schema's input,
 * parameters and query the ones its schemas take.
 *
 * Each is a valid request as the screens would send it (tests and `npm run invoke` start from it),
 * without working credentials: the owner's session, a worker's token and an issued customer
 * identity are added per test case. The customer cookie some carry names nobody until the server
 * has issued it. Ids are 22-character base64url strings, as functions/common/ids.ts makes them.
 */
export interface RouteExample<N extends RouteName> {
  params?: ParamsInputOf<N>;
  query?: QueryInputOf<N>;
  body?: BodyOf<N>;
  /** A body sent as it is, for a route that verifies a signature over its bytes (`rawBody`). */
  rawBody?: string;
  /** Headers besides what every sample sends (host, user agent, and the JSON content type of a body). */
  headers?: Record<string, string>;
  cookies?: string[];
}

export const routeExamples: { [N in RouteName]?: RouteExample<N> } = {
  'get-service': { params: { slug: 'plumbing' } },
  'create-booking': {
    body: {
      name: 'Dana Whitfield',
      phone: '(415) 555-0142',
      address: '742 Evergreen Terrace, Springfield',
      category: 'plumbing',
      details: 'Kitchen sink drains slowly and the trap drips.',
    },
  },
  'get-booking': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' } },
  'get-tracked-request': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' } },
  'find-tracked-request': { body: { number: 'QRSTUV12', phone: '(415) 555-0187' } },
  'setup-admin': {
    body: {
      setupCode: 'the-code-npm-start-printed',
      username: 'owner',
      email: 'owner@example.com',
      password: 'Tr1cky-Harbour-Lamp',
      confirm: 'Tr1cky-Harbour-Lamp',
    },
  },
  'login-admin': { body: { username: 'owner', password: 'Tr1cky-Harbour-Lamp' } },
  'change-password': {
    body: {
      currentPassword: 'Tr1cky-Harbour-Lamp',
      newPassword: 'Quiet-Meadow-Kettle-42',
      confirmPassword: 'Quiet-Meadow-Kettle-42',
    },
  },
  'set-owner-email': { body: { email: 'owner@example.com', currentPassword: 'Tr1cky-Harbour-Lamp' } },
  'request-password-reset': { body: { email: 'maria.lopez@example.com' } },
  'reset-password': {
    body: { token: 'sVh4b2Fy0cJ4cQmJ3v1xk0Ck3pRr9yqH6lT8WzNdE1A', password: 'Quiet-Meadow-Kettle-42', confirmPassword: 'Quiet-Meadow-Kettle-42' },
  },
  'dev-login': { body: { userId: 'dev-owner', role: 'admin', username: 'Dev Owner' } },
  'approve-worker': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' } },
  'reject-worker': {
    params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' },
    body: { notes: 'We need a clearer photo of your ID: please apply again with a sharper image.' },
  },
  'terminate-worker': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, body: { reason: 'Repeated no-shows after reinstatement.' } },
  'suspend-worker': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, body: { reason: 'Customer complaint under review.' } },
  'reinstate-worker': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, body: { reason: 'Reviewed: the late arrivals were traffic closures.' } },
  'list-workers': { query: { limit: '50', status: 'active' } },
  'list-jobs': { query: { limit: '50', state: 'booked', category: 'plumbing', from: '2026-01-01', to: '2026-12-31', customer: 'Dana', search: 'Elm' } },
  'list-jobs-needing-attention': { query: { limit: '50' } },
  'get-admin-job': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' } },
  'reoffer-job': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' } },
  'offer-job-to-worker': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' }, body: { workerId: 'AAAAAAAAAAAAAAAAAAAAAA' } },
  'cancel-job': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' }, body: { message: 'We could not find a pro for this today; please send the request again tomorrow.' } },
  'list-available-workers': { query: { category: 'plumbing' } },
  'list-worker-strikes': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, query: { limit: '50' } },
  'list-strike-appeals': { query: { limit: '50' } },
  'void-strike': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, body: { note: 'The road was closed; the customer confirmed it.' } },
  'uphold-strike': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, body: { note: 'The last fix put you 6 km away at the deadline.' } },
  'appeal-strike': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, body: { note: 'I was at the door at 10:40; the customer did not answer.' } },
  'get-application-document': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA', document: 'idFront' } },
  'approve-company-application': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, body: { notes: 'Licence and insurance checked.' } },
  'reject-company-application': {
    params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' },
    body: { notes: 'We could not verify the business licence; please apply again with a current one.' },
  },
  'get-company-application-status': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' } },
  'create-upload': { body: { type: 'worker-documents', contentType: 'image/jpeg', size: 1843200 } },
  'submit-worker-application': {
    body: {
      fullName: 'Maria Gonzalez',
      phoneNumber: '(512) 555-0142',
      emailAddress: 'maria.gonzalez@example.com',
      homeAddress: '1200 Barton Springs Rd, Austin, TX 78704',
      yearsExperience: 8,
      servicesProvided: ['plumbing', 'handyman'],
      hourlyRate: 4550,
      ssnLastFour: '1234',
      workingHours: 'Weekdays 8am-5pm, Saturdays until noon',
      availableSameDay: true,
      workerAgreement: true,
      workQualityAgreement: true,
      timelinessAgreement: true,
      liabilityAgreement: true,
      legalDisclaimerAccepted: true,
      photoIdFrontUrl: 'uploads/worker-documents/FFFFFFFFFFFFFFFFFFFFFF.jpg',
      photoIdBackUrl: 'uploads/worker-documents/BBBBBBBBBBBBBBBBBBBBBB.jpg',
      selfieUrl: 'uploads/worker-documents/SSSSSSSSSSSSSSSSSSSSSS.png',
    },
  },
  'apply-worker': {
    body: {
      fullName: 'James Carter',
      phone: '512-555-0199',
      email: 'james.carter@example.com',
      workAddress: '88 Riverside Dr, Austin, TX 78741',
      yearsExp: 12,
      categories: ['electrical', 'construction'],
      hourlyRate: 55.5,
      ssnLast4: '5678',
      legalDisclaimerAccepted: true,
      idFrontPhoto: 'uploads/worker-documents/ffffffffffffffffffffff.jpg',
      idBackPhoto: 'uploads/worker-documents/bbbbbbbbbbbbbbbbbbbbbb.jpg',
      selfie: 'uploads/worker-documents/ssssssssssssssssssssss.jpg',
    },
  },
  'submit-company-application': {
    body: {
      companyName: 'Lakeside Property Group',
      businessType: 'Property Management',
      contactPersonName: 'Priya Shah',
      phoneNumber: '(512) 555-0177',
      emailAddress: 'priya.shah@lakesideproperty.example',
      companyAddress: '400 Congress Ave, Suite 900, Austin, TX 78701',
      einTaxId: '12-3456789',
      workerTypesNeeded: ['Plumbing', 'Cleaning'],
      typicalWorkerCount: '5-10',
      averageProjectDuration: '1 day',
      billingContactName: 'Accounts Payable',
      billingContactEmail: 'ap@lakesideproperty.example',
      agreementAccepted: true,
      businessLicenseUrl: '',
      insuranceCertificateUrl: '',
    },
  },
  'login-worker': { body: { email: 'maria.lopez@example.com', password: 'correct-horse-42' } },
  'request-worker-account-link': { body: { email: 'maria.lopez@example.com' } },
  'check-worker-account-link': { body: { token: 'Tm90QVJlYWxMaW5rQnV0U2hhcGVkTGlrZU9uZTAxMjM' } },
  'create-worker-account': {
    body: { token: 'Tm90QVJlYWxMaW5rQnV0U2hhcGVkTGlrZU9uZTAxMjM', password: 'correct-horse-42', confirmPassword: 'correct-horse-42' },
  },
  'update-worker-profile': { body: { fullName: 'Maria Lopez', yearsExp: 8, categories: ['plumbing', 'handyman'], hourlyRate: 5500 } },
  'set-availability': { body: { isAvailable: true } },
  'set-worker-type': { body: { workerType: 'independent' } },
  'create-request': {
    body: {
      name: 'Priya Raman',
      email: 'priya.raman@example.com',
      phoneNumber: '(415) 555-0187',
      service: 'Plumbing',
      location: '1 Market St, San Francisco, CA',
      description: 'Water is leaking under the kitchen sink and pooling on the floor.',
      clientLatitude: 37.7942,
      clientLongitude: -122.3947,
      gpsEnabled: true,
    },
  },
  'list-requests': { cookies: ['customer_id=Cu5t0mErSaMpLe1234567A'] },
  'retry-request': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' } },
  'cancel-request': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' } },
  'reschedule-request': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' }, body: { requestedTime: '2026-11-22T14:00:00.000Z' } },
  'confirm-arrival': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' }, body: { arrived: true } },
  'get-payment-confirmation': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' }, query: { session_id: 'cs_test_sample' } },
  'hire-worker': {
    body: {
      name: 'Priya Raman',
      email: 'priya.raman@example.com',
      phoneNumber: '(415) 555-0187',
      service: 'Plumbing',
      location: '1 Market St, San Francisco, CA',
      description: 'Water is leaking under the kitchen sink and pooling on the floor.',
      clientLatitude: 37.7942,
      clientLongitude: -122.3947,
      gpsEnabled: true,
      workerId: 'WkR1a2b3c4d5e6f7g8h9iJ',
    },
  },
  'list-worker-profiles': { query: { category: 'plumbing' } },
  'request-requests-link': { body: { email: 'dana.whitfield@example.com' } },
  'preview-requests-link': { body: { token: 'Qm9va2luZ3NBcmVNaW5lQW5kT25seU1pbmVUb1JlYWQ' } },
  'open-requests-link': { body: { token: 'Qm9va2luZ3NBcmVNaW5lQW5kT25seU1pbmVUb1JlYWQ' } },
  'save-service-address': { body: { address: '1 Ferry Building, San Francisco, CA 94111', latitude: 37.7955, longitude: -122.3937 } },
  'create-estimate': { body: { category: 'plumbing', size: 'medium', location: { lat: 37.7942, lng: -122.3947 } } },
  'search-addresses': { query: { q: '350 Fifth Avenue New York' } },
  'reverse-geocode': { query: { lat: '40.74844', lng: '-73.98566' } },
  'set-worker-location': { body: { latitude: 37.7793, longitude: -122.4193, accuracy: 12 } },
  'list-job-offers': { params: { workerId: 'WkR1a2b3c4d5e6f7g8h9iJ' } },
  'accept-job': { params: { jobId: 'AbCdEfGhIjKlMnOpQrStUv' }, body: { workerId: 'WkR1a2b3c4d5e6f7g8h9iJ' } },
  'decline-job': { params: { jobId: 'AbCdEfGhIjKlMnOpQrStUv' }, body: { workerId: 'WkR1a2b3c4d5e6f7g8h9iJ' } },
  'list-worker-jobs': { params: { workerId: 'WkR1a2b3c4d5e6f7g8h9iJ' } },
  'list-completed-jobs': { params: { workerId: 'WkR1a2b3c4d5e6f7g8h9iJ' } },
  'get-job': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' } },
  'set-job-state': {
    params: { id: 'AbCdEfGhIjKlMnOpQrStUv' },
    body: { state: 'en_route', workerId: 'WkR1a2b3c4d5e6f7g8h9iJ' },
  },
  'complete-job': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' }, body: { workerId: 'WkR1a2b3c4d5e6f7g8h9iJ' } },
  'create-worker-review': {
    body: {
      serviceRequestId: 'AbCdEfGhIjKlMnOpQrStUv',
      rating: 5,
      reviewText: 'Fixed the leak quickly and left the kitchen spotless.',
      workerId: 'WkR1a2b3c4d5e6f7g8h9iJ',
      clientName: 'Sam Rivera',
      serviceName: 'Plumbing',
    },
  },
  'rate-job': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' }, body: { rating: 4, comment: 'On time and friendly.' } },
  'submit-client-verification': {
    body: {
      serviceRequestId: 'AbCdEfGhIjKlMnOpQrStUv',
      workerId: null,
      verificationType: 'work_verification',
      verificationStatus: 'approved',
      verificationNotes: null,
    },
  },
  'create-invoice': {
    params: { id: 'AbCdEfGhIjKlMnOpQrStUv' },
    body: { laborHours: 2.5, materialsCost: 42.5, notes: 'Replaced the tap cartridge.' },
  },
  'list-invoices': { cookies: ['customer_id=Cu5t0mErSaMpLe1234567A'] },
  'get-invoice': { params: { id: 'InV0iCeSaMpLe123456789' }, cookies: ['customer_id=Cu5t0mErSaMpLe1234567A'] },
  'get-request-invoice': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' } },
  'get-request-bill': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' } },
  'verify-request-bill': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' } },
  'create-bill-checkout': { params: { id: 'AbCdEfGhIjKlMnOpQrStUv' }, headers: { origin: 'http://localhost:3000' } },
  'verify-work': { params: { id: 'InV0iCeSaMpLe123456789' } },
  'create-checkout-session': {
    body: { invoiceId: 'InV0iCeSaMpLe123456789', workerStripeAccountId: null },
    headers: { origin: 'http://localhost:3000' },
  },
  'handle-stripe-webhook': {
    rawBody: '{"id": "evt_sample", "object": "event", "type": "checkout.session.completed", "data": {"object": {"id": "cs_test_sample", "object": "checkout.session", "payment_status": "paid", "metadata": {"invoiceId": "InV0iCeSaMpLe123456789"}}}}',
    headers: {
      'stripe-signature': 't=1795341600,v1=0000000000000000000000000000000000000000000000000000000000000000',
    },
  },
  'handle-stripe-connect-webhook': {
    rawBody: '{"id": "evt_sample_connect", "object": "event", "account": "acct_sample", "type": "account.updated", "data": {"object": {"id": "acct_sample", "object": "account", "charges_enabled": true, "payouts_enabled": true, "details_submitted": true}}}',
    headers: {
      'stripe-signature': 't=1795341600,v1=0000000000000000000000000000000000000000000000000000000000000000',
    },
  },
  'start-payout-onboarding': { headers: { origin: 'http://localhost:3000' } },
  'subscribe-push': {
    body: {
      endpoint: 'https://fcm.googleapis.com/fcm/send/sample-endpoint-0123456789',
      keys: {
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      },
      userAgent: 'sample-event',
    },
  },
  'unsubscribe-push': { body: { endpoint: 'https://fcm.googleapis.com/fcm/send/sample-endpoint-0123456789' } },
  'verify-push-subscription': { body: { endpoint: 'https://fcm.googleapis.com/fcm/send/sample-endpoint-0123456789' } },
  'renew-push-subscription': {
    body: {
      oldEndpoint: 'https://fcm.googleapis.com/fcm/send/sample-endpoint-0123456789',
      endpoint: 'https://fcm.googleapis.com/fcm/send/sample-endpoint-renewed-9876543210',
      keys: {
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      },
      expirationTime: null,
    },
  },
  'list-notifications': { cookies: ['customer_id=Cu5t0mErSaMpLe1234567A'] },
  'list-expiring-documents': { params: { days: '30' } },
  'create-document-upload': {
    body: {
      categoryId: 'liability-insurance',
      filename: 'liability-certificate.pdf',
      contentType: 'application/pdf',
      fileSize: 248000,
      displayName: '2027 liability certificate',
      expirationDate: '2030-06-30',
    },
  },
  'confirm-document-upload': { params: { uploadId: 'AAAAAAAAAAAAAAAAAAAAAA' } },
  'delete-document': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' } },
  'get-document-download': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, query: { mode: 'view' } },
  'list-all-documents': { query: { status: 'pending_review' } },
  'get-analytics': { query: { from: '2026-01-01', to: '2026-01-31', by: 'week' } },
  'export-jobs': { query: { from: '2026-01-01', to: '2026-01-31' } },
  'export-payments': { query: { from: '2026-01-01', to: '2026-01-31' } },
  'get-worker-compliance': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' } },
  'review-document': {
    params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' },
    body: { decision: 'approve', notes: 'Certificate checked with the insurer.' },
  },
  'get-admin-document-download': { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' }, query: { mode: 'download' } },
};
