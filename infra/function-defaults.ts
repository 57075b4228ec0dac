/**
 * How long a function may run unless it says otherwise (the recurring jobs take minutes). Read by
 * the CDK stack's `lambda()` and by the tests that pin what a function waits for (Stripe's timeout
 * and retries, functions/payments/stripe.test.ts) below it: a dependency that does not answer must end in
 * our 503 with Retry-After, not in a Lambda timeout the caller gets no words for.
 */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/**
 * The Lambda runtime every function deploys on. The tests and `npm start` run on the same Node
 * major (the node-linux-* package npm puts first on the scripts' PATH), so a dependency that needs
 * it is tested as it is deployed.
 */
export const NODE_RUNTIME = 'nodejs22.x';
