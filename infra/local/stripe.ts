import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Stripe from 'stripe';
import { readBody, sendJson } from './http-io';
import { makePrivateFolder, writePrivateFile } from './private-file';

/**
 * A local Stripe for the embedded runtime, so functions/payments/stripe.ts (the real `stripe` SDK,
 * pointed here by STRIPE_API_URL) runs offline. It speaks the SDK's wire format (form-encoded
 * requests, Bearer secret key, JSON answers shaped like Stripe's objects, errors as
 * `{ error: { type, message, param?, code? } }`) for just what the marketplace uses:
 *
 * - Checkout Sessions in payment mode: create, retrieve, list line items, expire;
 * - Connect: Express accounts (create, retrieve), onboarding account links, transfers;
 * - payment intents, charges, transfers and events made by the hosted pages (retrieve);
 * - Idempotency-Key: a repeated key with the same parameters answers the first response again
 *   (`Idempotent-Replayed: true`); with other parameters or another endpoint it is a 400
 *   idempotency_error. Kept 24 hours, as Stripe does. Only successful results are kept (Stripe
 *   keeps no result for a request refused by validation).
 *
 * Two hosted pages stand in for Stripe's: the Checkout page (`/checkout/<session id>`: Pay or
 * Cancel) and Express onboarding (`/connect/onboarding/<link id>`: Complete onboarding). Paying and
 * onboarding send `checkout.session.completed` / `account.updated` to `deliver`, signed exactly as
 * Stripe signs (the SDK's own generateTestHeaderString), and only then redirect the browser. As in
 * Stripe, events about a connected account (`account` set: account.updated) go to the Connect
 * endpoint, signed with its own secret (`connectWebhookSecret`); the platform's own events to the
 * platform endpoint, signed with `webhookSecret`. The redirect waits for the delivery, so the app's
 * success page sees the webhook's effect. A failed delivery is retried a few times with a short
 * backoff, then given up (logged); paying again on a completed session resends that same event
 * (same id) instead of making a new one.
 *
 * `GET /_local/events` lists every event made and whether it was delivered. It is local-only, for
 * tests and debugging: real Stripe has no such path.
 *
 * State lives in `<dir>/state.json`, rewritten atomically (temp file + rename) after every change;
 * the generated keys in `<dir>/keys.json`, so a restart keeps them. Not modelled: balances (a
 * transfer never fails for lack of funds), refunds, disputes, other events (e.g.
 * checkout.session.expired), anything outside the paths above (answered 404 as Stripe answers an
 * unknown URL).
 */

export interface LocalStripe {
  /** `http://127.0.0.1:<port>`: STRIPE_API_URL, and the origin of the hosted pages. */
  endpoint: string;
  secretKey: string;
  /** Signs the platform's events (the platform webhook endpoint's secret). */
  webhookSecret: string;
  /** Signs events about connected accounts (the Connect webhook endpoint's secret). */
  connectWebhookSecret: string;
  close(): Promise<void>;
}

/** Which of Stripe's two webhook endpoints an event goes to: the platform's or the Connect one. */
export type WebhookEndpoint = 'platform' | 'connect';

/** Sends one signed event to the app's webhook endpoint; throws (or rejects) if it was not accepted. */
export type DeliverWebhook = (payload: string, signature: string, endpoint: WebhookEndpoint) => Promise<void>;

export interface LocalStripeOptions {
  deliver: DeliverWebhook;
  /** Defaults to one generated (`sk_test_local_…`) and kept in the data dir. */
  secretKey?: string;
  /** Defaults to one generated (`whsec_local_…`) and kept in the data dir. */
  webhookSecret?: string;
  /** Defaults to one generated (`whsec_local_connect_…`) and kept in the data dir. */
  connectWebhookSecret?: string;
  /** The waits before each retry of a failed delivery (default 250, 750, 2000 ms: four attempts). */
  retryDelaysMs?: readonly number[];
}

/** Every key this emulator generates starts so; no real Stripe key does. */
export const LOCAL_SECRET_KEY_PREFIX = 'sk_test_local_';
const LOCAL_WEBHOOK_SECRET_PREFIX = 'whsec_local_';
const LOCAL_CONNECT_WEBHOOK_SECRET_PREFIX = 'whsec_local_connect_';

const STATE_FILE = 'state.json';
const KEYS_FILE = 'keys.json';
const MAX_BODY_BYTES = 1024 * 1024;
const DAY_SECONDS = 24 * 60 * 60;
const IDEMPOTENCY_TTL_SECONDS = DAY_SECONDS;
const ACCOUNT_LINK_TTL_SECONDS = 300;
const DEFAULT_RETRY_DELAYS_MS = [250, 750, 2000];
/** Stripe's minimum charge is $0.50 (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts). */
const MINIMUM_AMOUNT: Record<string, number> = { usd: 50 };
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// ---------------------------------------------------------------------------------------------
// Stored objects (the public ones are what the API answers)

type Metadata = Record<string, string>;

interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: null;
  customer_details: { email: string | null; name: null; phone: null; address: null; tax_exempt: 'none'; tax_ids: [] } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  locale: null;
  metadata: Metadata;
  mode: 'payment';
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete' | 'expired';
  success_url: string;
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  ui_mode: 'hosted';
  url: string | null;
}

interface LineItem {
  id: string;
  object: 'item';
  amount_discount: 0;
  amount_subtotal: number;
  amount_tax: 0;
  amount_total: number;
  currency: string;
  description: string;
  quantity: number;
  price: {
    id: string;
    object: 'price';
    active: false;
    currency: string;
    product: string;
    type: 'one_time';
    unit_amount: number;
    livemode: false;
  };
  /** Not part of Stripe's line item: the product's own description, shown on the page. */
  productDescription?: string;
}

interface PaymentIntentData {
  application_fee_amount?: number;
  description?: string;
  metadata: Metadata;
  receipt_email?: string;
  transfer_data?: { destination: string; amount?: number };
  transfer_group?: string;
}

interface StoredSession {
  session: CheckoutSession;
  lineItems: LineItem[];
  paymentIntentData: PaymentIntentData;
  /** The checkout.session.completed event, once paid. */
  eventId?: string;
}

interface Account {
  id: string;
  object: 'account';
  business_profile: { name: string | null; url: string | null };
  business_type: string | null;
  capabilities: Record<string, 'active' | 'inactive' | 'pending'>;
  charges_enabled: boolean;
  country: string;
  created: number;
  default_currency: string;
  details_submitted: boolean;
  email: string | null;
  livemode: false;
  metadata: Metadata;
  payouts_enabled: boolean;
  requirements: {
    currently_due: string[];
    eventually_due: string[];
    past_due: string[];
    disabled_reason: string | null;
    current_deadline: null;
    errors: [];
    pending_verification: [];
  };
  type: string;
}

interface StoredAccountLink {
  id: string;
  account: string;
  refresh_url: string;
  return_url: string;
  type: string;
  created: number;
  expires_at: number;
  used: boolean;
}

interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: 0;
  amount_received: number;
  application_fee_amount: number | null;
  capture_method: 'automatic_async';
  created: number;
  currency: string;
  customer: null;
  description: string | null;
  latest_charge: string;
  livemode: false;
  metadata: Metadata;
  payment_method_types: string[];
  receipt_email: string | null;
  status: 'succeeded';
  transfer_data: { destination: string } | null;
  transfer_group: string | null;
}

interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: 0;
  application_fee_amount: number | null;
  billing_details: { email: string | null; name: null; phone: null; address: null };
  captured: true;
  created: number;
  currency: string;
  description: string | null;
  livemode: false;
  metadata: Metadata;
  paid: true;
  payment_intent: string;
  receipt_email: string | null;
  refunded: false;
  status: 'succeeded';
  transfer: string | null;
  transfer_data: { destination: string } | null;
  transfer_group: string | null;
}

interface Transfer {
  id: string;
  object: 'transfer';
  amount: number;
  amount_reversed: 0;
  balance_transaction: string;
  created: number;
  currency: string;
  description: string | null;
  destination: string;
  destination_payment: string;
  livemode: false;
  metadata: Metadata;
  reversals: { object: 'list'; data: []; has_more: false; total_count: 0; url: string };
  reversed: false;
  source_transaction: string | null;
  source_type: 'card';
  transfer_group: string | null;
}

interface StripeEvent {
  id: string;
  object: 'event';
  /** Set on events about a connected account (account.updated), as Stripe sets it for Connect. */
  account?: string;
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: string;
}

interface StoredEvent {
  event: StripeEvent;
  delivered: boolean;
  attempts: number;
  last_error: string | null;
}

/** Records a new event (not yet delivered). */
type NewEvent = (type: string, object: unknown, extra?: { account?: string; previousAttributes?: Record<string, unknown> }) => StoredEvent;

interface IdempotentResult {
  method: string;
  path: string;
  params: string;
  status: number;
  body: unknown;
  created: number;
}

interface State {
  sessions: Record<string, StoredSession>;
  accounts: Record<string, Account>;
  accountLinks: Record<string, StoredAccountLink>;
  paymentIntents: Record<string, PaymentIntent>;
  charges: Record<string, Charge>;
  transfers: Record<string, Transfer>;
  events: StoredEvent[];
  idempotency: Record<string, IdempotentResult>;
}

const emptyState = (): State => ({
  sessions: {},
  accounts: {},
  accountLinks: {},
  paymentIntents: {},
  charges: {},
  transfers: {},
  events: [],
  idempotency: {},
});

// ---------------------------------------------------------------------------------------------
// Errors, as Stripe answers them

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
    readonly code?: string,
    readonly type = 'invalid_request_error',
  ) {
    super(message);
  }

  toJSON() {
    return {
      error: {
        type: this.type,
        message: this.message,
        ...(this.code ? { code: this.code } : {}),
        ...(this.param ? { param: this.param } : {}),
      },
    };
  }
}

const invalid = (message: string, param?: string, code?: string) => new StripeApiError(400, message, param, code);
const missing = (param: string) => invalid(`Missing required param: ${param}.`, param, 'parameter_missing');
const noSuch = (what: string, id: string, param?: string) =>
  new StripeApiError(404, `No such ${what}: '${id}'`, param, 'resource_missing');

// ---------------------------------------------------------------------------------------------
// The server

/** A local Stripe on a free loopback port, persisting under `dir` and sending its webhooks to `deliver`. */
export async function startLocalStripe(dir: string, options: LocalStripeOptions): Promise<LocalStripe> {
  const root = path.resolve(dir);
  makePrivateFolder(root);
  const keys = loadKeys(path.join(root, KEYS_FILE), options);
  const stateFile = path.join(root, STATE_FILE);
  const state = loadState(stateFile);
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  /** Deliveries under way, by event id: a second click waits for the first one's. */
  const delivering = new Map<string, Promise<boolean>>();
  let endpoint = '';
  let closed = false;

  const save = () => {
    const now = nowSeconds();
    for (const [key, result] of Object.entries(state.idempotency)) {
      if (result.created + IDEMPOTENCY_TTL_SECONDS < now) delete state.idempotency[key];
    }
    writePrivateFile(stateFile, JSON.stringify(state, null, 2));
  };

  const api = new Api(state, () => endpoint);

  const deliverEvent = (stored: StoredEvent): Promise<boolean> => {
    const running = delivering.get(stored.event.id);
    if (running) return running;
    const attempt = (async () => {
      const payload = JSON.stringify(stored.event);
      const endpoint: WebhookEndpoint = stored.event.account ? 'connect' : 'platform';
      const secret = endpoint === 'connect' ? keys.connectWebhookSecret : keys.webhookSecret;
      for (let i = 0; i <= retryDelays.length && !closed; i++) {
        if (i > 0) await sleep(retryDelays[i - 1]!);
        if (closed) break;
        stored.attempts++;
        try {
          const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
          await options.deliver(payload, signature, endpoint);
          stored.delivered = true;
          stored.last_error = null;
          if (!closed) save();
          return true;
        } catch (error) {
          stored.last_error = error instanceof Error ? error.message : String(error);
          const last = i === retryDelays.length;
          console.error(
            `local Stripe: delivering ${stored.event.id} (${stored.event.type}) failed, attempt ${i + 1} of ${retryDelays.length + 1}` +
              `${last ? ', giving up' : ''}: ${stored.last_error}`,
          );
          if (!closed) save();
        }
      }
      return false;
    })().finally(() => delivering.delete(stored.event.id));
    delivering.set(stored.event.id, attempt);
    return attempt;
  };

  const newEvent: NewEvent = (type, object, extra = {}) => {
    const stored: StoredEvent = {
      event: {
        id: `evt_${randomId(24)}`,
        object: 'event',
        ...(extra.account ? { account: extra.account } : {}),
        api_version: Stripe.API_VERSION,
        created: nowSeconds(),
        data: { object: structuredClone(object), ...(extra.previousAttributes ? { previous_attributes: extra.previousAttributes } : {}) },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      },
      delivered: false,
      attempts: 0,
      last_error: null,
    };
    state.events.push(stored);
    return stored;
  };

  const hosted = new HostedPages(state, api, save, newEvent, deliverEvent);

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('local Stripe:', error);
      if (res.headersSent) return void res.destroy();
      sendJson(res, 500, new StripeApiError(500, 'An unexpected error occurred in the local Stripe.', undefined, undefined, 'api_error'));
    });
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const body = await readBody(req, MAX_BODY_BYTES, () => new Error('The request body is too large'));
    if (url.pathname.startsWith('/v1/')) return handleApi(req, res, url, body);
    if (req.method === 'GET' && url.pathname === '/_local/events') {
      const type = url.searchParams.get('type');
      const data = state.events.filter((e) => !type || e.event.type === type);
      return sendJson(res, 200, {
        object: 'list',
        url: '/_local/events',
        has_more: false,
        data: data.map((e) => ({ id: e.event.id, type: e.event.type, created: e.event.created, ...e })),
      });
    }
    await hosted.handle(req, res, url);
  };

  const handleApi = (req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer) => {
    res.setHeader('Request-Id', `req_${randomId(14)}`);
    res.setHeader('Stripe-Version', String(req.headers['stripe-version'] ?? Stripe.API_VERSION));
    const method = req.method ?? 'GET';
    try {
      authenticate(req.headers.authorization, keys.secretKey);
      const params = parseForm(method === 'POST' ? body.toString('utf8') : url.search.slice(1));
      const idempotencyKey = method === 'POST' ? header(req, 'idempotency-key') : undefined;
      const canonical = JSON.stringify(sortKeys(params));
      if (idempotencyKey) {
        if (idempotencyKey.length > 255) throw invalid('Idempotency keys must be at most 255 characters long.', undefined, 'idempotency_key_in_use');
        const previous = state.idempotency[idempotencyKey];
        if (previous && previous.created + IDEMPOTENCY_TTL_SECONDS >= nowSeconds()) {
          if (previous.method !== method || previous.path !== url.pathname) {
            throw new StripeApiError(
              400,
              `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${previous.method} ${previous.path}' vs ` +
                `'${method} ${url.pathname}'). Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
              undefined,
              undefined,
              'idempotency_error',
            );
          }
          if (previous.params !== canonical) {
            throw new StripeApiError(
              400,
              'Keys for idempotent requests can only be used with the same parameters they were first used with. ' +
                `Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
              undefined,
              undefined,
              'idempotency_error',
            );
          }
          res.setHeader('Idempotent-Replayed', 'true');
          return sendJson(res, previous.status, previous.body);
        }
      }
      // Synchronous from here to the answer: no other request can slip in between the
      // idempotency check above and the result being kept below.
      const result = api.route(method, url.pathname, params);
      if (idempotencyKey) {
        state.idempotency[idempotencyKey] = {
          method,
          path: url.pathname,
          params: canonical,
          status: 200,
          body: result.body,
          created: nowSeconds(),
        };
      }
      if (result.changed || idempotencyKey || api.dirty) save();
      sendJson(res, 200, result.body);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      if (api.dirty) save();
      if (error.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="Stripe"');
      sendJson(res, error.status, error);
    } finally {
      api.dirty = false;
    }
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  endpoint = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | undefined;
  return {
    endpoint,
    secretKey: keys.secretKey,
    webhookSecret: keys.webhookSecret,
    connectWebhookSecret: keys.connectWebhookSecret,
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        closed = true;
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      })),
  };
}

// ---------------------------------------------------------------------------------------------
// The API

interface ApiResult {
  body: unknown;
  changed?: boolean;
}

class Api {
  /** Set when a read changed the state (a session found past its expiry). */
  dirty = false;

  constructor(
    private readonly state: State,
    private readonly endpoint: () => string,
  ) {}

  route(method: string, pathname: string, params: FormObject): ApiResult {
    const parts = pathname.split('/').slice(2).map(decodeURIComponent); // after '/v1/'
    const [resource, id, action, ...rest] = parts;
    const expand = stringList(params.expand, 'expand');
    const read = (object: object): ApiResult => ({ body: this.expand(object, expand) });
    const write = (object: object): ApiResult => ({ body: this.expand(object, expand), changed: true });

    if (resource === 'checkout' && id === 'sessions' && rest.length <= 1) {
      const [sessionId, verb] = [action, rest[0]];
      if (method === 'POST' && sessionId === undefined) return write(this.createSession(params));
      if (method === 'GET' && sessionId !== undefined && verb === undefined) return read(this.session(sessionId).session);
      if (method === 'GET' && sessionId !== undefined && verb === 'line_items') {
        const stored = this.session(sessionId);
        return { body: list(`/v1/checkout/sessions/${sessionId}/line_items`, stored.lineItems.map(publicLineItem)) };
      }
      if (method === 'POST' && sessionId !== undefined && verb === 'expire') return write(this.expireSession(sessionId));
    } else if (rest.length === 0 && action === undefined) {
      if (resource === 'accounts') {
        if (method === 'POST' && id === undefined) return write(this.createAccount(params));
        if (method === 'GET' && id !== undefined) return read(this.account(id, 'account'));
      }
      if (resource === 'account_links' && method === 'POST' && id === undefined) return write(this.createAccountLink(params));
      if (resource === 'transfers') {
        if (method === 'POST' && id === undefined) return write(this.createTransfer(params));
        if (method === 'GET' && id !== undefined) return read(found(this.state.transfers[id], 'transfer', id));
      }
      if (resource === 'payment_intents' && method === 'GET' && id !== undefined) {
        return read(found(this.state.paymentIntents[id], 'payment_intent', id, 'intent'));
      }
      if (resource === 'charges' && method === 'GET' && id !== undefined) return read(found(this.state.charges[id], 'charge', id, 'id'));
      if (resource === 'events' && method === 'GET' && id !== undefined) {
        return read(found(this.state.events.find((e) => e.event.id === id)?.event, 'event', id, 'id'));
      }
    }
    throw new StripeApiError(
      404,
      `Unrecognized request URL (${method}: ${pathname}). The local Stripe (infra/local/stripe.ts) serves only what the marketplace uses.`,
    );
  }

  // -- Checkout Sessions

  session(id: string): StoredSession {
    const stored = this.state.sessions[id];
    if (!stored) throw noSuch('checkout.session', id, 'session');
    const { session } = stored;
    if (session.status === 'open' && session.expires_at <= nowSeconds()) {
      session.status = 'expired';
      this.dirty = true;
    }
    // The port is new on every start: the page's address is always this run's.
    session.url = session.status === 'open' ? `${this.endpoint()}/checkout/${id}` : null;
    return stored;
  }

  private createSession(params: FormObject): CheckoutSession {
    const mode = string(params.mode, 'mode');
    if (mode === undefined) throw missing('mode');
    if (!['payment', 'setup', 'subscription'].includes(mode)) {
      throw invalid(`Invalid mode: must be one of payment, setup, or subscription`, 'mode');
    }
    if (mode !== 'payment') throw invalid(`The local Stripe supports only mode=payment, not ${mode}.`, 'mode');
    const successUrl = string(params.success_url, 'success_url');
    if (successUrl === undefined) throw missing('success_url');
    checkUrl(successUrl, 'success_url');
    const cancelUrl = string(params.cancel_url, 'cancel_url');
    if (cancelUrl !== undefined) checkUrl(cancelUrl, 'cancel_url');

    const items = indexedList(params.line_items, 'line_items');
    if (!items || items.length === 0) throw missing('line_items');
    const lineItems = items.map((item, i) => this.lineItem(item, `line_items[${i}]`));
    const currency = lineItems[0]!.currency;
    lineItems.forEach((item, i) => {
      if (item.currency !== currency) {
        throw invalid('All line items must have the same currency.', `line_items[${i}][price_data][currency]`);
      }
    });
    const amount = lineItems.reduce((sum, item) => sum + item.amount_total, 0);
    const minimum = MINIMUM_AMOUNT[currency];
    if (minimum !== undefined && amount < minimum) {
      throw invalid(
        `The Checkout Session's total amount due must add up to at least ${formatAmount(minimum, currency)} ${currency}`,
        undefined,
        'amount_too_small',
      );
    }

    const customerEmail = string(params.customer_email, 'customer_email');
    if (customerEmail !== undefined && !EMAIL.test(customerEmail)) throw invalid(`Invalid email address: ${customerEmail}`, 'customer_email', 'email_invalid');
    const clientReferenceId = string(params.client_reference_id, 'client_reference_id');
    if (clientReferenceId !== undefined && clientReferenceId.length > 200) {
      throw invalid('client_reference_id must be at most 200 characters.', 'client_reference_id');
    }
    const created = nowSeconds();
    const expiresAt = integer(params.expires_at, 'expires_at');
    if (expiresAt !== undefined) {
      if (expiresAt < created + 30 * 60 - 60) {
        throw invalid('The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', 'expires_at');
      }
      if (expiresAt > created + DAY_SECONDS) {
        throw invalid('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', 'expires_at');
      }
    }
    const paymentIntentData = this.paymentIntentData(params.payment_intent_data, amount);

    const id = `cs_test_${randomId(58)}`;
    const session: CheckoutSession = {
      id,
      object: 'checkout.session',
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: cancelUrl ?? null,
      client_reference_id: clientReferenceId ?? null,
      created,
      currency,
      customer: null,
      customer_details: null,
      customer_email: customerEmail ?? null,
      expires_at: expiresAt ?? created + DAY_SECONDS,
      livemode: false,
      locale: null,
      metadata: metadata(params.metadata, 'metadata'),
      mode: 'payment',
      payment_intent: null,
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      status: 'open',
      success_url: successUrl,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      url: `${this.endpoint()}/checkout/${id}`,
    };
    this.state.sessions[id] = { session, lineItems, paymentIntentData };
    return session;
  }

  private lineItem(item: FormValue, at: string): LineItem {
    if (typeof item !== 'object') throw invalid(`Invalid object`, at);
    if (item.price !== undefined) throw invalid('The local Stripe supports only line items with price_data, not a price ID.', `${at}[price]`);
    const quantity = integer(item.quantity, `${at}[quantity]`);
    if (quantity === undefined) throw missing(`${at}[quantity]`);
    if (quantity < 1) throw invalid('Invalid positive integer', `${at}[quantity]`);
    const priceData = item.price_data;
    if (priceData === undefined) throw missing(`${at}[price_data]`);
    if (typeof priceData !== 'object') throw invalid('Invalid object', `${at}[price_data]`);
    const currency = string(priceData.currency, `${at}[price_data][currency]`)?.toLowerCase();
    if (currency === undefined) throw missing(`${at}[price_data][currency]`);
    if (!/^[a-z]{3}$/.test(currency)) throw invalid(`Invalid currency: ${currency}`, `${at}[price_data][currency]`);
    const unitAmount = integer(priceData.unit_amount, `${at}[price_data][unit_amount]`);
    if (unitAmount === undefined) throw missing(`${at}[price_data][unit_amount]`);
    if (unitAmount < 1) throw invalid('Invalid positive integer', `${at}[price_data][unit_amount]`);
    const productData = priceData.product_data;
    if (productData === undefined) throw missing(`${at}[price_data][product_data]`);
    if (typeof productData !== 'object') throw invalid('Invalid object', `${at}[price_data][product_data]`);
    const name = string(productData.name, `${at}[price_data][product_data][name]`);
    if (!name) throw missing(`${at}[price_data][product_data][name]`);
    const description = string(productData.description, `${at}[price_data][product_data][description]`);
    const total = unitAmount * quantity;
    return {
      id: `li_${randomId(24)}`,
      object: 'item',
      amount_discount: 0,
      amount_subtotal: total,
      amount_tax: 0,
      amount_total: total,
      currency,
      description: name,
      quantity,
      price: {
        id: `price_${randomId(24)}`,
        object: 'price',
        active: false,
        currency,
        product: `prod_${randomId(14)}`,
        type: 'one_time',
        unit_amount: unitAmount,
        livemode: false,
      },
      ...(description ? { productDescription: description } : {}),
    };
  }

  private paymentIntentData(value: FormValue | undefined, amount: number): PaymentIntentData {
    const at = 'payment_intent_data';
    if (value === undefined || value === '') return { metadata: {} };
    if (typeof value !== 'object') throw invalid('Invalid object', at);
    const data: PaymentIntentData = { metadata: metadata(value.metadata, `${at}[metadata]`) };
    const fee = integer(value.application_fee_amount, `${at}[application_fee_amount]`);
    const transferData = value.transfer_data;
    if (transferData !== undefined && transferData !== '') {
      if (typeof transferData !== 'object') throw invalid('Invalid object', `${at}[transfer_data]`);
      const destination = string(transferData.destination, `${at}[transfer_data][destination]`);
      if (!destination) throw missing(`${at}[transfer_data][destination]`);
      this.transferDestination(destination, `${at}[transfer_data][destination]`);
      const transferAmount = integer(transferData.amount, `${at}[transfer_data][amount]`);
      if (transferAmount !== undefined && (transferAmount < 0 || transferAmount > amount)) {
        throw invalid('The transfer amount must be between 0 and the amount of the payment.', `${at}[transfer_data][amount]`);
      }
      data.transfer_data = { destination, ...(transferAmount !== undefined ? { amount: transferAmount } : {}) };
    }
    if (fee !== undefined) {
      if (!data.transfer_data) {
        throw invalid(
          'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or ' +
            'Stripe-Account header) or destination payment (using `transfer_data[destination]`).',
          `${at}[application_fee_amount]`,
        );
      }
      if (fee < 0) throw invalid('Invalid non-negative integer', `${at}[application_fee_amount]`);
      if (fee > amount) throw invalid('The application fee cannot be greater than the amount of the payment.', `${at}[application_fee_amount]`);
      data.application_fee_amount = fee;
    }
    const transferGroup = string(value.transfer_group, `${at}[transfer_group]`);
    if (transferGroup) data.transfer_group = transferGroup;
    const description = string(value.description, `${at}[description]`);
    if (description) data.description = description;
    const receiptEmail = string(value.receipt_email, `${at}[receipt_email]`);
    if (receiptEmail) data.receipt_email = receiptEmail;
    return data;
  }

  private expireSession(id: string): CheckoutSession {
    const { session } = this.session(id);
    if (session.status !== 'open') {
      throw invalid(
        `Only Checkout Sessions with a status of \`open\` can be expired. This Checkout Session has a status of \`${session.status}\`.`,
        undefined,
        'checkout_session_not_open',
      );
    }
    session.status = 'expired';
    session.url = null;
    return session;
  }

  /** What paying on the hosted page makes: the payment intent, its charge and (destination charges) the transfer. */
  pay(stored: StoredSession): CheckoutSession {
    const { session, paymentIntentData: data } = stored;
    const created = nowSeconds();
    const email = session.customer_email;
    const piId = `pi_${randomId(24)}`;
    const chargeId = `ch_${randomId(24)}`;
    const destination = data.transfer_data?.destination;
    let transferId: string | null = null;
    if (destination) {
      const transfer = this.newTransfer({
        amount: data.transfer_data?.amount ?? session.amount_total - (data.application_fee_amount ?? 0),
        currency: session.currency,
        destination,
        metadata: {},
        sourceTransaction: chargeId,
        transferGroup: data.transfer_group ?? null,
      });
      transferId = transfer.id;
    }
    const common = {
      amount: session.amount_total,
      application_fee_amount: data.application_fee_amount ?? null,
      created,
      currency: session.currency,
      description: data.description ?? null,
      livemode: false as const,
      metadata: { ...data.metadata },
      receipt_email: data.receipt_email ?? null,
      transfer_data: destination ? { destination } : null,
      transfer_group: data.transfer_group ?? null,
    };
    this.state.paymentIntents[piId] = {
      ...common,
      id: piId,
      object: 'payment_intent',
      amount_capturable: 0,
      amount_received: session.amount_total,
      capture_method: 'automatic_async',
      customer: null,
      latest_charge: chargeId,
      payment_method_types: ['card'],
      status: 'succeeded',
    };
    this.state.charges[chargeId] = {
      ...common,
      id: chargeId,
      object: 'charge',
      amount_captured: session.amount_total,
      amount_refunded: 0,
      billing_details: { email, name: null, phone: null, address: null },
      captured: true,
      paid: true,
      payment_intent: piId,
      refunded: false,
      status: 'succeeded',
      transfer: transferId,
    };
    session.status = 'complete';
    session.payment_status = 'paid';
    session.payment_intent = piId;
    session.url = null;
    session.customer_details = { email, name: null, phone: null, address: null, tax_exempt: 'none', tax_ids: [] };
    return session;
  }

  // -- Connect

  account(id: string, param?: string): Account {
    const account = this.state.accounts[id];
    if (!account) throw noSuch('account', id, param);
    return account;
  }

  private createAccount(params: FormObject): Account {
    const type = string(params.type, 'type');
    if (type === undefined) {
      throw invalid('The local Stripe creates only accounts with a type (express, standard or custom).', 'type');
    }
    if (!['express', 'standard', 'custom'].includes(type)) throw invalid(`Invalid type: must be one of custom, express, or standard`, 'type');
    const email = string(params.email, 'email');
    if (email !== undefined && !EMAIL.test(email)) throw invalid(`Invalid email address: ${email}`, 'email', 'email_invalid');
    const country = (string(params.country, 'country') ?? 'US').toUpperCase();
    const capabilities: Account['capabilities'] = {};
    const requested = params.capabilities;
    if (requested !== undefined && requested !== '') {
      if (typeof requested !== 'object') throw invalid('Invalid object', 'capabilities');
      for (const [name, value] of Object.entries(requested)) {
        if (typeof value !== 'object') throw invalid('Invalid object', `capabilities[${name}]`);
        if (boolean(value.requested, `capabilities[${name}][requested]`)) capabilities[name] = 'inactive';
      }
    }
    const businessType = string(params.business_type, 'business_type');
    const id = `acct_${randomId(16)}`;
    const account: Account = {
      id,
      object: 'account',
      business_profile: { name: null, url: null },
      business_type: businessType ?? null,
      capabilities,
      charges_enabled: false,
      country,
      created: nowSeconds(),
      default_currency: string(params.default_currency, 'default_currency')?.toLowerCase() ?? 'usd',
      details_submitted: false,
      email: email ?? null,
      livemode: false,
      metadata: metadata(params.metadata, 'metadata'),
      payouts_enabled: false,
      requirements: {
        currently_due: ['business_type', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'],
        eventually_due: ['business_type', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'],
        past_due: ['business_type', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'],
        disabled_reason: 'requirements.past_due',
        current_deadline: null,
        errors: [],
        pending_verification: [],
      },
      type,
    };
    this.state.accounts[id] = account;
    return account;
  }

  /** What finishing the hosted onboarding does; the previous values of what changed. */
  completeOnboarding(account: Account): Record<string, unknown> | undefined {
    if (account.details_submitted && account.payouts_enabled && account.charges_enabled) return undefined;
    const previous = {
      capabilities: { ...account.capabilities },
      charges_enabled: account.charges_enabled,
      details_submitted: account.details_submitted,
      payouts_enabled: account.payouts_enabled,
      requirements: structuredClone(account.requirements),
    };
    // The capabilities asked for become active; an account that asked for none can still receive transfers.
    if (Object.keys(account.capabilities).length === 0) account.capabilities.transfers = 'inactive';
    for (const name of Object.keys(account.capabilities)) account.capabilities[name] = 'active';
    account.charges_enabled = true;
    account.payouts_enabled = true;
    account.details_submitted = true;
    account.requirements = {
      currently_due: [],
      eventually_due: [],
      past_due: [],
      disabled_reason: null,
      current_deadline: null,
      errors: [],
      pending_verification: [],
    };
    return previous;
  }

  private createAccountLink(params: FormObject) {
    const accountId = string(params.account, 'account');
    if (!accountId) throw missing('account');
    this.account(accountId, 'account');
    const type = string(params.type, 'type');
    if (type === undefined) throw missing('type');
    if (!['account_onboarding', 'account_update'].includes(type)) {
      throw invalid('Invalid type: must be one of account_onboarding or account_update', 'type');
    }
    const refreshUrl = string(params.refresh_url, 'refresh_url');
    if (refreshUrl === undefined) throw missing('refresh_url');
    checkUrl(refreshUrl, 'refresh_url');
    const returnUrl = string(params.return_url, 'return_url');
    if (returnUrl === undefined) throw missing('return_url');
    checkUrl(returnUrl, 'return_url');
    const created = nowSeconds();
    const id = randomId(24);
    this.state.accountLinks[id] = {
      id,
      account: accountId,
      refresh_url: refreshUrl,
      return_url: returnUrl,
      type,
      created,
      expires_at: created + ACCOUNT_LINK_TTL_SECONDS,
      used: false,
    };
    return { object: 'account_link', created, expires_at: created + ACCOUNT_LINK_TTL_SECONDS, url: `${this.endpoint()}/connect/onboarding/${id}` };
  }

  private transferDestination(destination: string, param: string): Account {
    const account = this.state.accounts[destination];
    if (!account) throw invalid(`No such destination: '${destination}'`, param, 'resource_missing');
    if (account.capabilities.transfers !== 'active' || !account.payouts_enabled) {
      throw invalid(
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        param,
        'insufficient_capabilities_for_transfer',
      );
    }
    return account;
  }

  private createTransfer(params: FormObject): Transfer {
    const amount = integer(params.amount, 'amount');
    if (amount === undefined) throw missing('amount');
    if (amount < 1) throw invalid('Invalid positive integer', 'amount');
    const currency = string(params.currency, 'currency')?.toLowerCase();
    if (currency === undefined) throw missing('currency');
    if (!/^[a-z]{3}$/.test(currency)) throw invalid(`Invalid currency: ${currency}`, 'currency');
    const destination = string(params.destination, 'destination');
    if (!destination) throw missing('destination');
    this.transferDestination(destination, 'destination');
    const sourceTransaction = string(params.source_transaction, 'source_transaction');
    if (sourceTransaction !== undefined) {
      const charge = this.state.charges[sourceTransaction];
      if (!charge) throw invalid(`No such charge: '${sourceTransaction}'`, 'source_transaction', 'resource_missing');
      if (charge.currency !== currency) {
        throw invalid(`The currency of the transfer (${currency}) must match the source transaction's (${charge.currency}).`, 'currency');
      }
      const transferred = Object.values(this.state.transfers)
        .filter((t) => t.source_transaction === sourceTransaction)
        .reduce((sum, t) => sum + t.amount, 0);
      const available = charge.amount - (charge.application_fee_amount ?? 0) - transferred;
      if (amount > available) {
        throw invalid(
          `The transfer amount (${amount}) exceeds what is left of source transaction ${sourceTransaction} (${Math.max(0, available)}).`,
          'amount',
          'balance_insufficient',
        );
      }
    }
    return this.newTransfer({
      amount,
      currency,
      destination,
      metadata: metadata(params.metadata, 'metadata'),
      sourceTransaction: sourceTransaction ?? null,
      transferGroup: string(params.transfer_group, 'transfer_group') ?? null,
      description: string(params.description, 'description') ?? null,
    });
  }

  private newTransfer(t: {
    amount: number;
    currency: string;
    destination: string;
    metadata: Metadata;
    sourceTransaction: string | null;
    transferGroup: string | null;
    description?: string | null;
  }): Transfer {
    const id = `tr_${randomId(24)}`;
    const transfer: Transfer = {
      id,
      object: 'transfer',
      amount: t.amount,
      amount_reversed: 0,
      balance_transaction: `txn_${randomId(24)}`,
      created: nowSeconds(),
      currency: t.currency,
      description: t.description ?? null,
      destination: t.destination,
      destination_payment: `py_${randomId(24)}`,
      livemode: false,
      metadata: t.metadata,
      reversals: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/transfers/${id}/reversals` },
      reversed: false,
      source_transaction: t.sourceTransaction,
      source_type: 'card',
      transfer_group: t.transferGroup,
    };
    this.state.transfers[id] = transfer;
    return transfer;
  }

  // -- expand[]

  /** A copy of `object` with the `expand[]` paths (e.g. payment_intent, payment_intent.latest_charge) replaced by their objects. */
  private expand(object: object, paths: string[]): unknown {
    const copy = structuredClone(object) as Record<string, unknown>;
    for (const dotted of paths) {
      let node: Record<string, unknown> | undefined = copy;
      for (const field of dotted.split('.')) {
        if (!node) break;
        if (!(field in node) && !(field === 'line_items' && node.object === 'checkout.session')) {
          throw invalid(`This property cannot be expanded (${dotted}).`, 'expand');
        }
        if (field === 'line_items' && node.object === 'checkout.session') {
          const stored = this.state.sessions[String(node.id)];
          node.line_items = list(`/v1/checkout/sessions/${String(node.id)}/line_items`, (stored?.lineItems ?? []).map(publicLineItem));
          node = undefined;
          continue;
        }
        const value = node[field];
        if (typeof value === 'string') {
          const target = this.byId(value);
          if (!target) throw invalid(`This property cannot be expanded (${dotted}).`, 'expand');
          node[field] = structuredClone(target);
        }
        const next: unknown = node[field];
        node = next && typeof next === 'object' ? (next as Record<string, unknown>) : undefined;
      }
    }
    return copy;
  }

  private byId(id: string): object | undefined {
    const s = this.state;
    if (id.startsWith('pi_')) return s.paymentIntents[id];
    if (id.startsWith('ch_')) return s.charges[id];
    if (id.startsWith('tr_')) return s.transfers[id];
    if (id.startsWith('acct_')) return s.accounts[id];
    if (id.startsWith('cs_')) return s.sessions[id] && this.session(id).session;
    return undefined;
  }
}

function found<T>(value: T | undefined, what: string, id: string, param?: string): T {
  if (value === undefined) throw noSuch(what, id, param);
  return value;
}

function list(url: string, data: unknown[]) {
  return { object: 'list', data, has_more: false, url };
}

function publicLineItem(item: LineItem) {
  const { productDescription: _, ...rest } = item;
  return rest;
}

// ---------------------------------------------------------------------------------------------
// Hosted pages

class HostedPages {
  constructor(
    private readonly state: State,
    private readonly api: Api,
    private readonly save: () => void,
    private readonly newEvent: NewEvent,
    private readonly deliverEvent: (stored: StoredEvent) => Promise<boolean>,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    let m = /^\/checkout\/([^/]+)(?:\/(pay|cancel))?$/.exec(url.pathname);
    if (m) {
      const [, id, action] = m as unknown as [string, string, string | undefined];
      if (!action && (method === 'GET' || method === 'HEAD')) return this.checkoutPage(res, decodeURIComponent(id));
      if (action === 'pay' && method === 'POST') return this.pay(res, decodeURIComponent(id));
      if (action === 'cancel' && method === 'POST') return this.cancel(res, decodeURIComponent(id));
      return sendHtml(res, 405, page('Not allowed', '<h1>Not allowed</h1><p>Use the buttons on the checkout page.</p>'));
    }
    m = /^\/connect\/onboarding\/([^/]+)$/.exec(url.pathname);
    if (m) {
      const id = decodeURIComponent(m[1]!);
      if (method === 'GET' || method === 'HEAD') return this.onboardingPage(res, id);
      if (method === 'POST') return this.completeOnboarding(res, id);
      return sendHtml(res, 405, page('Not allowed', '<h1>Not allowed</h1>'));
    }
    sendJson(res, 404, new StripeApiError(404, `Unrecognized request URL (${method}: ${url.pathname}).`));
  }

  private find(res: ServerResponse, id: string): StoredSession | undefined {
    const stored = this.state.sessions[id];
    if (!stored) {
      sendHtml(res, 404, page('Checkout not found', '<h1>Checkout not found</h1><p>There is no checkout session with this address.</p>'));
      return undefined;
    }
    this.api.session(id); // moves an open session past its expires_at to expired
    if (this.api.dirty) {
      this.api.dirty = false;
      this.save();
    }
    return stored;
  }

  private checkoutPage(res: ServerResponse, id: string) {
    const stored = this.find(res, id);
    if (!stored) return;
    const { session } = stored;
    const total = formatAmount(session.amount_total, session.currency);
    if (session.status === 'complete') return sendHtml(res, 200, completedPage(session));
    if (session.status === 'expired') return sendHtml(res, 200, expiredPage(session));
    const items = stored.lineItems
      .map(
        (item) =>
          `<li><span class="name">${escapeHtml(item.description)}</span>` +
          (item.productDescription ? `<span class="detail">${escapeHtml(item.productDescription)}</span>` : '') +
          (item.quantity > 1 ? `<span class="detail">Quantity ${item.quantity}</span>` : '') +
          `<span class="amount">${escapeHtml(formatAmount(item.amount_total, item.currency))}</span></li>`,
      )
      .join('');
    const body =
      `<p class="test">Test mode (local Stripe)</p>` +
      `<h1>Checkout</h1>` +
      `<ul class="items" aria-label="What you are paying for">${items}</ul>` +
      `<p class="total">Total <strong>${escapeHtml(total)}</strong></p>` +
      (session.customer_email ? `<p class="detail">Receipt to ${escapeHtml(session.customer_email)}</p>` : '') +
      `<p class="detail">No card is needed: this is the local stand-in for Stripe Checkout.</p>` +
      `<form method="post" action="/checkout/${encodeURIComponent(id)}/pay"><button type="submit" class="primary">Pay ${escapeHtml(total)}</button></form>` +
      (session.cancel_url
        ? `<form method="post" action="/checkout/${encodeURIComponent(id)}/cancel"><button type="submit">Cancel</button></form>`
        : '');
    sendHtml(res, 200, page(`Pay ${total}`, body));
  }

  private async pay(res: ServerResponse, id: string) {
    const stored = this.find(res, id);
    if (!stored) return;
    const { session } = stored;
    if (session.status === 'expired') return sendHtml(res, 409, expiredPage(session));
    if (session.status === 'open') {
      this.api.pay(stored);
      const event = this.newEvent('checkout.session.completed', session);
      stored.eventId = event.event.id;
      this.save();
    }
    // Paid now or before (a second click, the back button): the one event, delivered once. A
    // delivery that failed before is tried again with the same event, as Stripe retries.
    const event = this.state.events.find((e) => e.event.id === stored.eventId);
    if (event && !event.delivered) await this.deliverEvent(event);
    redirect(res, session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id));
  }

  private cancel(res: ServerResponse, id: string) {
    const stored = this.find(res, id);
    if (!stored) return;
    const { session } = stored;
    // As on Stripe's page the session stays open: the customer may come back and pay.
    if (!session.cancel_url) return sendHtml(res, 409, page('Cannot cancel', '<h1>Cannot cancel</h1><p>This checkout has no cancel address.</p>'));
    redirect(res, session.cancel_url);
  }

  private link(id: string): StoredAccountLink | undefined {
    return this.state.accountLinks[id];
  }

  private onboardingPage(res: ServerResponse, id: string) {
    const link = this.link(id);
    if (!link) return sendHtml(res, 404, page('Link not found', '<h1>Link not found</h1><p>There is no onboarding link with this address.</p>'));
    // Stripe sends an expired or already used link to refresh_url, where the app makes a new one.
    if (link.used || link.expires_at < nowSeconds()) return redirect(res, link.refresh_url);
    const account = this.api.account(link.account);
    const body =
      `<p class="test">Test mode (local Stripe)</p>` +
      `<h1>Set up payouts (local Stripe)</h1>` +
      `<p>Account <code>${escapeHtml(account.id)}</code>${account.email ? ` for ${escapeHtml(account.email)}` : ''}.</p>` +
      `<p class="detail">No identity or bank details are asked for: this is the local stand-in for Stripe's Express onboarding.</p>` +
      `<form method="post" action="/connect/onboarding/${encodeURIComponent(id)}"><button type="submit" class="primary">Complete onboarding</button></form>` +
      `<p><a href="${escapeHtml(link.return_url)}">Return without completing</a></p>`;
    sendHtml(res, 200, page('Set up payouts (local Stripe)', body));
  }

  private async completeOnboarding(res: ServerResponse, id: string) {
    const link = this.link(id);
    if (!link) return sendHtml(res, 404, page('Link not found', '<h1>Link not found</h1><p>There is no onboarding link with this address.</p>'));
    if (link.used || link.expires_at < nowSeconds()) return redirect(res, link.refresh_url);
    const account = this.api.account(link.account);
    link.used = true;
    const previous = this.api.completeOnboarding(account);
    const event = previous
      ? this.newEvent('account.updated', account, { account: account.id, previousAttributes: previous })
      : undefined;
    this.save();
    if (event) await this.deliverEvent(event);
    redirect(res, link.return_url);
  }
}

function completedPage(session: CheckoutSession): string {
  const next = session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id);
  return page(
    'Payment complete',
    `<p class="test">Test mode (local Stripe)</p><h1>Payment complete</h1>` +
      `<p>${escapeHtml(formatAmount(session.amount_total, session.currency))} was paid.</p>` +
      `<p><a href="${escapeHtml(next)}">Continue</a></p>`,
  );
}

function expiredPage(session: CheckoutSession): string {
  return page(
    'Checkout expired',
    `<p class="test">Test mode (local Stripe)</p><h1>Checkout expired</h1>` +
      `<p>This checkout session has expired; nothing was paid.</p>` +
      (session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Go back</a></p>` : ''),
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f6f8fa; color: #1a1f36; margin: 0; }
  main { max-width: 28rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  .test { display: inline-block; background: #ffde92; color: #5e3a00; font-size: .875rem; font-weight: 600; padding: .125rem .5rem; border-radius: 4px; margin: 0 0 1rem; }
  .items { list-style: none; padding: 0; margin: 0 0 1rem; }
  .items li { display: flex; flex-wrap: wrap; justify-content: space-between; gap: .25rem; padding: .5rem 0; border-bottom: 1px solid #e3e8ee; }
  .items .detail { flex-basis: 100%; order: 3; }
  .name { font-weight: 600; }
  .detail { color: #4f566b; font-size: .875rem; }
  .total { font-size: 1.25rem; }
  form { margin: .75rem 0 0; }
  button { width: 100%; font: inherit; font-size: 1rem; padding: .75rem; border-radius: 6px; border: 1px solid #8792a2; background: #fff; color: #1a1f36; cursor: pointer; }
  button.primary { background: #533afd; border-color: #533afd; color: #fff; font-weight: 600; }
  button:focus-visible, a:focus-visible { outline: 3px solid #1a1f36; outline-offset: 2px; }
  a { color: #3b24d6; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

// ---------------------------------------------------------------------------------------------
// Form-encoded parameters, as the SDK sends them (`a[b][0][c]=v`)

type FormValue = string | FormObject;
interface FormObject {
  [key: string]: FormValue;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function parseForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
    if (!m) throw invalid(`Invalid parameter name: ${name}`);
    const segments = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((s) => s[1]!)];
    let node = root;
    segments.forEach((raw, i) => {
      const segment = raw === '' ? String(Object.keys(node).length) : raw; // `a[]=x` appends
      if (FORBIDDEN_KEYS.has(segment)) throw invalid(`Invalid parameter name: ${name}`);
      if (i === segments.length - 1) {
        if (typeof node[segment] === 'object') throw invalid(`Invalid object`, segments.slice(0, i + 1).join('.'));
        node[segment] = value;
        return;
      }
      const next = node[segment];
      if (next === undefined || next === '') node[segment] = {};
      else if (typeof next === 'string') throw invalid(`Invalid object`, name);
      node = node[segment] as FormObject;
    });
  }
  return root;
}

function string(value: FormValue | undefined, param: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(`Invalid string: ${JSON.stringify(value)}`, param);
  return value;
}

function integer(value: FormValue | undefined, param: string): number | undefined {
  const text = string(value, param);
  if (text === undefined) return undefined;
  if (!/^-?\d{1,15}$/.test(text)) throw invalid(`Invalid integer: ${text}`, param);
  return Number(text);
}

function boolean(value: FormValue | undefined, param: string): boolean | undefined {
  const text = string(value, param);
  if (text === undefined) return undefined;
  if (text !== 'true' && text !== 'false') throw invalid(`Invalid boolean: ${text}`, param);
  return text === 'true';
}

/** `a[0]…a[n]` as an array; an unindexed object is refused as Stripe refuses it. */
function indexedList(value: FormValue | undefined, param: string): FormValue[] | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'object') throw invalid('Invalid array', param);
  const keys = Object.keys(value);
  if (!keys.every((k) => /^\d+$/.test(k))) throw invalid('Invalid array', param);
  return keys.sort((a, b) => Number(a) - Number(b)).map((k) => value[k]!);
}

function stringList(value: FormValue | undefined, param: string): string[] {
  return (indexedList(value, param) ?? []).map((v, i) => {
    const s = string(v, `${param}[${i}]`);
    if (s === undefined) throw invalid('Invalid array', param);
    return s;
  });
}

/** Stripe's metadata rules: at most 50 keys, keys up to 40 characters, values up to 500. */
function metadata(value: FormValue | undefined, param: string): Metadata {
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object') throw invalid('Invalid object', param);
  const entries = Object.entries(value);
  if (entries.length > 50) throw invalid('Invalid metadata: metadata can have at most 50 keys.', param);
  const result: Metadata = {};
  for (const [key, v] of entries) {
    if (typeof v !== 'string') throw invalid(`Invalid string: ${JSON.stringify(v)}`, `${param}[${key}]`);
    if (key.length > 40) throw invalid('Metadata keys can be at most 40 characters long.', `${param}[${key}]`);
    if (v.length > 500) throw invalid('Metadata values can be at most 500 characters long.', `${param}[${key}]`);
    if (v !== '') result[key] = v;
  }
  return result;
}

function checkUrl(value: string, param: string) {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('Not a valid URL', param, 'url_invalid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('Not a valid URL', param, 'url_invalid');
}

function sortKeys(value: FormValue): unknown {
  if (typeof value === 'string') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys(value[k]!)]),
  );
}

// ---------------------------------------------------------------------------------------------
// Keys, state, HTTP helpers

interface Keys {
  secretKey: string;
  webhookSecret: string;
  connectWebhookSecret: string;
}

function loadKeys(file: string, options: LocalStripeOptions): Keys {
  let stored: Partial<Keys> = {};
  try {
    stored = JSON.parse(readFileSync(file, 'utf8')) as typeof stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const keys = {
    secretKey: stored.secretKey ?? `${LOCAL_SECRET_KEY_PREFIX}${randomId(32)}`,
    webhookSecret: stored.webhookSecret ?? `${LOCAL_WEBHOOK_SECRET_PREFIX}${randomId(32)}`,
    // Data folders from before the Connect endpoint get one added, the other keys kept.
    connectWebhookSecret: stored.connectWebhookSecret ?? `${LOCAL_CONNECT_WEBHOOK_SECRET_PREFIX}${randomId(32)}`,
  };
  if (stored.secretKey !== keys.secretKey || stored.webhookSecret !== keys.webhookSecret || stored.connectWebhookSecret !== keys.connectWebhookSecret) {
    writePrivateFile(file, JSON.stringify(keys, null, 2));
  }
  return {
    secretKey: options.secretKey ?? keys.secretKey,
    webhookSecret: options.webhookSecret ?? keys.webhookSecret,
    connectWebhookSecret: options.connectWebhookSecret ?? keys.connectWebhookSecret,
  };
}

function loadState(file: string): State {
  try {
    return { ...emptyState(), ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<State>) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyState();
    throw error;
  }
}

function authenticate(authorization: string | undefined, secretKey: string) {
  let key: string | undefined;
  if (authorization?.startsWith('Bearer ')) key = authorization.slice('Bearer '.length).trim();
  else if (authorization?.startsWith('Basic ')) key = Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8').split(':')[0];
  if (!key) {
    throw new StripeApiError(
      401,
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  }
  const digest = (s: string) => createHash('sha256').update(s).digest();
  if (!timingSafeEqual(digest(key), digest(secretKey))) {
    const shown = key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : '***';
    throw new StripeApiError(401, `Invalid API Key provided: ${shown}`);
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}


function sendHtml(res: ServerResponse, status: number, html: string) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.end(html);
}

function redirect(res: ServerResponse, location: string) {
  res.statusCode = 303;
  res.setHeader('Location', location);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', '0');
  res.end();
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `$123.45` for 12345 usd; zero-decimal currencies are whole units. */
export function formatAmount(amount: number, currency: string): string {
  const units = ZERO_DECIMAL.has(currency.toLowerCase()) ? amount : amount / 100;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(units);
  } catch {
    return `${units.toFixed(2)} ${currency.toUpperCase()}`;
  }
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomId(length: number): string {
  let id = '';
  for (let i = 0; i < length; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
