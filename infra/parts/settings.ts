import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RemovalPolicy, type Stack, type StackProps } from 'aws-cdk-lib';
import { siteDomainSettings, type SiteDomainSettings } from '../domain';
import { deployedRoutes, type RouteDef } from '../../shared/routes';
import { functionFile } from '../../shared/function-files';
import { geocoderSetting, type GeocoderKind } from './geocoding';

export interface MarketplaceStackProps extends StackProps {
  /** Deployment stage, e.g. 'prod' or 'dev'. Only 'prod' keeps its data when the stack goes. */
  stage: string;
  /** The one platform fee rate, in percent of an invoice's total, 0..100. */
  platformFeePercent: number;
  supportEmail: string;
  /** Folder holding the built web app (index.html at its root). */
  webAssetPath: string;
  /**
   * Dispatch tuning; each one absent here comes from the cdk context key of
   * the same name if set there, else the functions use shared/domain/dispatch.ts's default.
   */
  dispatch?: Partial<Record<DispatchSetting, number>>;
  /**
   * The geocoder behind the two geocode routes (context "geocoder"): 'amazon-location' (the default:
   * Amazon Location's Places API in the stack's region), 'nominatim' (a Nominatim-compatible service
   * at geocoderUrl, never chosen by default) or 'none' (the forms work without suggestions).
   */
  geocoder?: GeocoderKind;
  /** The Nominatim-compatible service (context "geocoderUrl"); given alone, it chooses 'nominatim'. */
  geocoderUrl?: string;
  /**
   * The Secrets Manager secret holding Stripe's keys as JSON `{ "secretKey": "sk_...", "webhookSecret": "whsec_...",
   * "connectWebhookSecret": "whsec_..." }` (the platform and Connect webhook endpoints' signing secrets)
   * (context "stripeSecretName"; default `marketplace/<stage>/stripe`). Create it before deploying.
   */
  stripeSecretName?: string;
  /** The site's public origin for Stripe's return addresses (context "publicUrl"); default: the caller's Origin. */
  publicUrl?: string;
  /**
   * The Secrets Manager secret with the web push VAPID keys as JSON `{ "publicKey", "privateKey" }`
   * (context "vapidSecretName"; default `marketplace/<stage>/vapid`; `npx web-push generate-vapid-keys --json`).
   */
  vapidSecretName?: string;
  /**
   * X-Ray active tracing of every function (context "tracing": true/false; default off). HTTP and
   * WebSocket APIs have no X-Ray support of their own, so a trace starts at the function.
   */
  tracing?: boolean;
  /**
   * The HTTP API's detailed metrics, per route (context "detailedMetrics": true/false; default off).
   * Billed as custom metrics (six a route, each hour it is called), so off by default: the dashboard's
   * route tables read the access log instead, paid per query when opened. On, they are graphed too.
   */
  detailedMetrics?: boolean;
  /** An address the alarm topic mails (context "alarmEmail"); none: subscribe to the topic yourself. */
  alarmEmail?: string;
  /**
   * Turns AWS WAF on with rate-based rules (context "wafRateLimit"): writes to /api/ one address may
   * send in 5 minutes (reads: ten times that). The stack must then be deployed to us-east-1.
   */
  wafRateLimit?: number;
  /** An existing CloudFront web ACL to put in front instead (context "webAclArn"). */
  webAclArn?: string;
  /**
   * The site's own name (context "domainName", e.g. fixly.app): the distribution answers on it with
   * an ACM certificate, the uploads bucket takes posts from it and publicUrl defaults to it. With
   * `hostedZoneId` (and `hostedZoneName`, default: the domain itself) the stack makes the certificate
   * (the stack must then be in us-east-1) and the A/AAAA records; with `certificateArn` (a us-east-1
   * certificate) it uses that one, in any region. Checked by infra/domain.ts.
   */
  domainName?: string;
  hostedZoneId?: string;
  hostedZoneName?: string;
  certificateArn?: string;
  /**
   * The domain the product's mail is sent from (context "mailDomain"; default: domainName). With
   * one, the stack makes its SES identity (Easy DKIM), a configuration set whose bounces and
   * complaints mark the address, and lets the mail sender alone send (infra/mail.ts). Without one,
   * mail stays in the outbox, unsent.
   */
  mailDomain?: string;
  /**
   * The HTTP routes to deploy: the manifest's `deployedRoutes` unless given. The tests size the
   * stack with more routes than the manifest has today.
   */
  routes?: readonly RouteDef[];
  /** Where a function's code is, by its name: `functions/<area>/<name>.ts` unless given. */
  entryOf?: (name: string) => string;
}

/** Context key → function environment variable, with the range functions/common/env.ts accepts. */
const dispatchSettings = {
  offerSeconds: { env: 'OFFER_SECONDS', min: 1, max: 3600 },
  offersAtOnce: { env: 'OFFERS_AT_ONCE', min: 1, max: 10 },
  maxOffers: { env: 'MAX_OFFERS', min: 1, max: 100 },
  arrivalGraceSeconds: { env: 'ARRIVAL_GRACE_SECONDS', min: 1, max: 24 * 3600 },
} as const;
type DispatchSetting = keyof typeof dispatchSettings;

/** The repository root, so entries resolve the same from the CLI, tsx and vitest. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** "get-service" -> "GetService", for construct ids. */
export function pascal(name: string): string {
  return name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The distance unit a context value names, undefined when unset; anything but mi or km is refused. */
function distanceUnitOf(value: unknown): 'mi' | 'km' | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value === 'mi' || value === 'km') return value;
  throw new Error(`context "distanceUnit" must be mi or km, got "${String(value)}"`);
}

/**
 * The dispatch settings given (props first, then cdk context), checked here so that a bad value
 * fails the synth rather than every function's cold start.
 */
function dispatchEnvironment(given: (key: DispatchSetting) => unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, { env, min, max }] of Object.entries(dispatchSettings)) {
    const raw = given(key as DispatchSetting);
    if (raw === undefined || raw === null || raw === '') continue;
    const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`${key} must be a whole number between ${min} and ${max}, got ${JSON.stringify(raw)}`);
    }
    out[env] = String(value);
  }
  return out;
}

/**
 * The stage name the local runtime uses (infra/local/stack.ts). A deployed stack may not take it:
 * a template must never look, to a reader or to code, like the developer's laptop.
 */
const LOCAL_STAGE = 'local';

/** Refuses a stage no deployed stack may have, saying what to do instead. */
export function assertDeployableStage(stage: string): void {
  if (stage === LOCAL_STAGE) {
    throw new Error(
      `stage "${LOCAL_STAGE}" is the local runtime's (npm start), not a stage to deploy: ` +
        'choose another name, e.g. -c stage=dev',
    );
  }
}

/** A switch that is either absent, a boolean, or the strings cdk -c passes for one. */
function booleanSetting(value: unknown, message: string): boolean {
  if (value !== undefined && ![true, false, 'true', 'false'].includes(value as string | boolean)) {
    throw new Error(`${message}, got ${JSON.stringify(value)}`);
  }
  return value === true || value === 'true';
}

/**
 * Every choice the operator makes, from the props or else the cdk context of the same name,
 * checked before anything is built so that a bad value stops the synth with what to do.
 */
export interface Settings {
  stage: string;
  isProd: boolean;
  platformFeePercent: number;
  supportEmail: string;
  webAssetPath: string;
  /**
   * Kept through updates and stack deletion, but not through the rollback of the deploy that
   * created them: a first deploy that fails would otherwise leave the uploads bucket (a fixed name)
   * behind, and every retry would fail with "already exists". The table is the exception
   * (parts/data-table.ts).
   */
  removalPolicy: RemovalPolicy;
  /** Where a function's code is, by its name. */
  entryOf: (name: string) => string;
  /** The HTTP routes to deploy. */
  routes: readonly RouteDef[];
  tracing: boolean;
  detailedMetrics: boolean;
  alarmEmail?: string;
  geocoder: GeocoderKind;
  geocoderUrl?: string;
  stripeSecretName: string;
  vapidSecretName: string;
  /** The site's own name, if the operator gave one (infra/domain.ts). */
  siteDomain?: SiteDomainSettings;
  publicUrl?: string;
  /** The domain mail is sent from; none: mail stays in the outbox. */
  mailDomain?: string;
  /** Distances on screen (context "distanceUnit": mi or km; miles by default, as for US dollars). */
  distanceUnit?: 'mi' | 'km';
  /** The dispatch tuning, as the functions' environment variables. */
  dispatchEnvironment: Record<string, string>;
  wafRateLimit?: number;
  webAclArn?: string;
  originSecretRevision?: string;
}

export function settingsOf(stack: Stack, props: MarketplaceStackProps): Settings {
  const { stage, platformFeePercent, supportEmail, webAssetPath } = props;
  const context = (key: string): unknown => stack.node.tryGetContext(key);
  assertDeployableStage(stage);
  if (!Number.isFinite(platformFeePercent) || platformFeePercent < 0 || platformFeePercent > 100) {
    throw new Error(`platformFeePercent must be a number between 0 and 100, got ${platformFeePercent}`);
  }
  if (!existsSync(webAssetPath)) {
    throw new Error(
      `The web asset folder "${webAssetPath}" does not exist: build the web app first (npm run build:web) ` +
        'or pass another folder with -c webAssetPath=<folder>.',
    );
  }
  const isProd = stage === 'prod';
  const tracing = booleanSetting(props.tracing ?? context('tracing'), 'tracing must be true or false');
  const detailedMetrics = booleanSetting(
    props.detailedMetrics ?? context('detailedMetrics'),
    "detailedMetrics must be true or false (true: the HTTP API's per-route metrics, billed as custom metrics)",
  );
  const alarmEmail = props.alarmEmail ?? (context('alarmEmail') as string | undefined);
  if (alarmEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(alarmEmail)) {
    throw new Error(`alarmEmail must be an email address, got ${JSON.stringify(alarmEmail)}`);
  }
  const geocoderUrl = props.geocoderUrl ?? (context('geocoderUrl') as string | undefined);
  const geocoder = geocoderSetting(props.geocoder ?? context('geocoder'), geocoderUrl);
  const siteDomain = siteDomainSettings(
    {
      domainName: props.domainName ?? context('domainName'),
      hostedZoneId: props.hostedZoneId ?? context('hostedZoneId'),
      hostedZoneName: props.hostedZoneName ?? context('hostedZoneName'),
      certificateArn: props.certificateArn ?? context('certificateArn'),
    },
    stack.region,
  );
  const publicUrl = props.publicUrl ?? (context('publicUrl') as string | undefined) ?? (siteDomain ? `https://${siteDomain.domainName}` : undefined);
  if (publicUrl !== undefined && !/^https:\/\/[^\s/]+$/.test(publicUrl)) {
    throw new Error(`publicUrl must be an https origin without a path, got ${JSON.stringify(publicUrl)}`);
  }
  const distanceUnit = distanceUnitOf(context('distanceUnit'));
  const rawWaf = props.wafRateLimit ?? context('wafRateLimit');
  const wafRateLimit = rawWaf === undefined ? undefined : Number(rawWaf);
  if (wafRateLimit !== undefined && (!Number.isInteger(wafRateLimit) || wafRateLimit < 10 || wafRateLimit > 2_000_000_000)) {
    throw new Error(`wafRateLimit must be a whole number of requests per 5 minutes, at least 10, got ${JSON.stringify(rawWaf)}`);
  }
  const webAclArn = props.webAclArn ?? (context('webAclArn') as string | undefined);
  const mailDomain = props.mailDomain ?? (context('mailDomain') as string | undefined) ?? siteDomain?.domainName;
  const originSecretRevision = context('originSecretRevision');
  return {
    stage,
    isProd,
    platformFeePercent,
    supportEmail,
    webAssetPath,
    removalPolicy: isProd ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY,
    entryOf: props.entryOf ?? ((name: string) => `${repoRoot}${functionFile(name)}`),
    routes: props.routes ?? deployedRoutes,
    tracing,
    detailedMetrics,
    alarmEmail,
    geocoder,
    geocoderUrl,
    stripeSecretName: props.stripeSecretName ?? (context('stripeSecretName') as string | undefined) ?? `marketplace/${stage}/stripe`,
    vapidSecretName: props.vapidSecretName ?? (context('vapidSecretName') as string | undefined) ?? `marketplace/${stage}/vapid`,
    siteDomain,
    publicUrl,
    mailDomain,
    distanceUnit,
    dispatchEnvironment: dispatchEnvironment((key) => props.dispatch?.[key] ?? context(key)),
    wafRateLimit,
    webAclArn,
    originSecretRevision: originSecretRevision === undefined ? undefined : String(originSecretRevision),
  };
}
