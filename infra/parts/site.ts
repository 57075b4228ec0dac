import { Duration, type Stack } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { SiteDomain } from '../domain';
import type { OriginSecret } from '../origin-secret';
import { SiteDeployment } from '../site-deploy';
import { EdgeFirewall } from '../waf';
import { contentSecurityPolicyFor, HSTS_MAX_AGE_SECONDS, securityHeadersFor, strictTransportSecurity } from '../../shared/security-headers';
import { forwardedHostCode, spaRewriteCode, webSocketPathCode } from './edge-code';
import type { Settings } from './settings';

export interface SiteProps {
  accessLogsBucket: Bucket;
  /** The HTTP API's host name, behind /api/*. */
  apiDomain: string;
  /** The WebSocket API's host name and stage, behind /ws. */
  webSocketDomain: string;
  webSocketStageName: string;
  /** The headers that prove to the functions a request came through CloudFront. */
  originSecret: OriginSecret;
  /** Where the browser reaches the uploads bucket, which the CSP must allow. */
  uploadOrigins: readonly string[];
}

/**
 * The web: a private bucket behind CloudFront with the security headers, /api/* to the HTTP API
 * and /ws to the WebSocket API, WAF in front when the operator turns it on, the site's own name
 * when it has one (infra/domain.ts), and the upload of the built web app (infra/site-deploy.ts).
 */
export class Site {
  readonly distribution: cloudfront.Distribution;
  /** The site's address: its own name when it has one, else CloudFront's. */
  readonly origin: string;

  constructor(stack: Stack, settings: Settings, props: SiteProps) {
    const { stage, removalPolicy, isProd } = settings;
    const siteBucket = new Bucket(stack, 'SiteBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: props.accessLogsBucket,
      serverAccessLogsPrefix: 'site/',
      removalPolicy,
      autoDeleteObjects: !isProd,
    });

    const spaRewrite = new cloudfront.Function(stack, 'SpaRewrite', {
      comment: 'Serve the prerendered page or index.html for client-side routes (paths without a file extension)',
      code: cloudfront.FunctionCode.fromInline(spaRewriteCode),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });
    const securityHeaders = securityHeadersPolicy(stack, stage, props.uploadOrigins);
    const webSocketPath = new cloudfront.Function(stack, 'WebSocketPath', {
      comment: 'Send /ws to the root of the WebSocket API stage (the origin path)',
      code: cloudfront.FunctionCode.fromInline(webSocketPathCode),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });
    const forwardedHost = new cloudfront.Function(stack, 'ForwardedHost', {
      comment: 'Pass the visitor\'s host name on to the API as X-Forwarded-Host',
      code: cloudfront.FunctionCode.fromInline(forwardedHostCode),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    // AWS WAF at the edge when the operator turns it on: their own web ACL, or one built here.
    const webAclArn = settings.webAclArn
      ?? (settings.wafRateLimit !== undefined ? new EdgeFirewall(stack, 'EdgeFirewall', { writesPerFiveMinutes: settings.wafRateLimit }).webAclArn : undefined);

    // CloudFront's standard logs (one line per viewer request, the edge's own status and timing).
    // They are written with S3 ACLs, so this bucket alone has them enabled (the bucket owner still
    // owns every object). Kept like the API's access log; CloudFront cannot deliver to buckets in a
    // few opt-in regions (af-south-1, ap-east-1, eu-south-1, me-south-1).
    const cloudFrontLogs = new Bucket(stack, 'CloudFrontLogs', {
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: props.accessLogsBucket,
      serverAccessLogsPrefix: 'cloudfront-logs/',
      removalPolicy,
      autoDeleteObjects: !isProd,
      lifecycleRules: [{ id: 'expire-cloudfront-logs', expiration: Duration.days(90) }],
    });
    const domain = settings.siteDomain ? new SiteDomain(stack, 'SiteDomain', settings.siteDomain) : undefined;

    this.distribution = new cloudfront.Distribution(stack, 'Distribution', {
      ...(webAclArn ? { webAclId: webAclArn } : {}),
      ...(domain
        ? { domainNames: [domain.domainName], certificate: domain.certificate, minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 }
        : {}),
      enableLogging: true,
      logBucket: cloudFrontLogs,
      logFilePrefix: 'cloudfront/',
      comment: `Home-services marketplace (${stage})`,
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(siteBucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        responseHeadersPolicy: securityHeaders,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: new HttpOrigin(props.apiDomain, { protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY, customHeaders: props.originSecret.originHeaders }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: securityHeaders,
          compress: true,
          functionAssociations: [{ function: forwardedHost, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        },
        // Same origin as the site, so the handshake carries the customer and owner cookies. Every
        // viewer header but Host reaches API Gateway (Sec-WebSocket-Key/-Version/-Protocol/-Extensions,
        // Cookie, and the query string): execute-api routes on its own Host name and refuses ours.
        '/ws': {
          origin: new HttpOrigin(props.webSocketDomain, {
            originPath: `/${props.webSocketStageName}`,
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            customHeaders: props.originSecret.originHeaders,
          }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          functionAssociations: [{ function: webSocketPath, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
          compress: false,
        },
      },
    });

    // The site's name points at the distribution (A and AAAA aliases), when the stack has its zone.
    domain?.pointAt(this.distribution);
    this.origin = domain ? `https://${domain.domainName}` : `https://${this.distribution.distributionDomainName}`;

    // Hashed assets first, kept across releases; then the HTML and other unhashed files (infra/site-deploy.ts).
    new SiteDeployment(stack, 'DeploySite', { webAssetPath: settings.webAssetPath, bucket: siteBucket, distribution: this.distribution });
  }
}

/**
 * The headers of shared/security-headers.ts, the same the local runtime sends: the CSP lets the
 * browser post to and show images from this stack's uploads bucket. Checked against what CloudFront
 * can express, so that a change there that CloudFront cannot send stops the synth.
 */
function securityHeadersPolicy(stack: Stack, stage: string, uploadOrigins: readonly string[]): cloudfront.ResponseHeadersPolicy {
  const headers = securityHeadersFor({ uploadOrigins: [...uploadOrigins] });
  const referrerPolicy = Object.values(cloudfront.HeadersReferrerPolicy).find((value) => value === headers['referrer-policy']);
  if (!referrerPolicy) throw new Error(`CloudFront has no Referrer-Policy ${headers['referrer-policy']}`);
  if (headers['x-frame-options'] !== 'DENY') throw new Error(`Unexpected X-Frame-Options ${headers['x-frame-options']}`);
  if (headers['strict-transport-security'] !== strictTransportSecurity || !/includeSubDomains/.test(strictTransportSecurity)) {
    throw new Error(`Unexpected Strict-Transport-Security ${headers['strict-transport-security']}`);
  }
  return new cloudfront.ResponseHeadersPolicy(stack, 'SecurityHeaders', {
    comment: `Security headers (${stage}), from shared/security-headers.ts`,
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicyFor({ uploadOrigins: [...uploadOrigins] }), override: true },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
        includeSubdomains: true,
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy, override: true },
    },
    customHeadersBehavior: {
      customHeaders: [{ header: 'Permissions-Policy', value: headers['permissions-policy']!, override: true }],
    },
  });
}
