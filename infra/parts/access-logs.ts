import { Duration, type Stack } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import type { Settings } from './settings';

/**
 * Server access logs of the stack's buckets (who read or wrote which object, when): the uploads,
 * the site, the failed batches and CloudFront's own logs all write here under a prefix each.
 */
export function accessLogsBucket(stack: Stack, { removalPolicy, isProd }: Settings): Bucket {
  return new Bucket(stack, 'AccessLogsBucket', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    removalPolicy,
    autoDeleteObjects: !isProd,
    lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(365) }],
  });
}
