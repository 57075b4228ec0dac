import { Aws, Duration, type Stack } from 'aws-cdk-lib';
import { Effect, PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { DocumentGrant, RouteDef } from '../../shared/routes';
import { retentionPeriods } from '../../shared/document-categories';
import type { Settings } from './settings';

/**
 * The uploads bucket: private, reached only through presigned POSTs and GETs, holding the photos,
 * application files and compliance documents under a prefix each. Function roles get rights on
 * those prefixes only (grantTo).
 */
export class Uploads {
  /**
   * Built, not generated: functions refer to the bucket by name and its CORS rule refers to the
   * distribution, which would otherwise close a dependency cycle (bucket → distribution → API →
   * functions → bucket).
   */
  readonly bucketName: string;
  readonly bucket: Bucket;
  /** The same bucket by name, for the grants: a reference to the bucket itself would close that cycle. */
  private readonly byName: IBucket;

  constructor(stack: Stack, { stage, removalPolicy, isProd }: Settings, accessLogsBucket: Bucket) {
    this.bucketName = `marketplace-uploads-${stage}-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
    this.bucket = new Bucket(stack, 'UploadsBucket', {
      bucketName: this.bucketName,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: accessLogsBucket,
      serverAccessLogsPrefix: 'uploads/',
      removalPolicy,
      autoDeleteObjects: !isProd,
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Copies of deleted compliance documents, kept for their category's retention period.
        ...retentionPeriods().map((years) => ({
          id: `retained-${years}y`,
          prefix: `retained/${years}y/`,
          expiration: Duration.days(Math.ceil(years * 365.25)),
        })),
      ],
    });
    this.byName = Bucket.fromBucketName(stack, 'UploadsBucketByName', this.bucketName);
  }

  /** The origins the browser reaches the bucket at (both of S3's host forms), for the CSP. */
  get origins(): string[] {
    return [`https://${this.bucketName}.s3.${Aws.REGION}.amazonaws.com`, `https://${this.bucketName}.s3.amazonaws.com`];
  }

  /** Gives a function role the upload and document rights of a manifest entry, prefix by prefix. */
  grantTo(role: IRole, uploads: RouteDef['uploads'], documents: readonly DocumentGrant[] = []): void {
    const byName = this.byName;
    // Reading objects under a prefix, and listing only that prefix (which S3 also asks of a read,
    // to answer 404 rather than 403 for a key that is not there). Bucket.grantRead would list and
    // read the metadata of the whole bucket.
    const readPrefixes = new Set<string>();
    const grantReadUnder = (prefix: string) => {
      role.addToPrincipalPolicy(
        new PolicyStatement({ effect: Effect.ALLOW, actions: ['s3:GetObject*'], resources: [byName.arnForObjects(`${prefix}*`)] }),
      );
      readPrefixes.add(prefix);
    };
    if (uploads === 'read' || uploads === 'file' || uploads === 'review') grantReadUnder('uploads/');
    if (uploads === 'write') byName.grantPut(role, 'uploads/*');
    if (uploads === 'file') {
      byName.grantDelete(role, 'uploads/*');
      byName.grantPut(role, 'applications/*');
    }
    if (uploads === 'review') grantReadUnder('applications/');
    for (const right of new Set(documents)) {
      if (right === 'upload') byName.grantPut(role, 'document-uploads/*');
      if (right === 'read-upload') grantReadUnder('document-uploads/');
      if (right === 'delete-upload') byName.grantDelete(role, 'document-uploads/*');
      if (right === 'read') grantReadUnder('documents/');
      if (right === 'write') byName.grantPut(role, 'documents/*');
      if (right === 'delete') byName.grantDelete(role, 'documents/*');
      if (right === 'retain') byName.grantPut(role, 'retained/*');
    }
    if (readPrefixes.size) {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['s3:ListBucket'],
          resources: [byName.bucketArn],
          conditions: { StringLike: { 's3:prefix': [...readPrefixes].sort().map((prefix) => `${prefix}*`) } },
        }),
      );
    }
  }

  /**
   * Browsers post uploads straight to the bucket from the site's origins: CloudFront's name (it
   * still serves the site), and the site's own name or publicUrl when there is one.
   */
  allowBrowsersFrom(origins: readonly string[]): void {
    this.bucket.addCorsRule({
      allowedOrigins: [...new Set(origins)],
      allowedMethods: [HttpMethods.POST, HttpMethods.GET],
      allowedHeaders: ['*'],
      maxAge: 3000,
    });
  }
}
