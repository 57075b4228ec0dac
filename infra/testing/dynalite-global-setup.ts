import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureTable, localDynamoClient, seedCatalog, startDynalite } from '../local/dynamo';
import { ensureBucket, localS3Client, startLocalS3 } from '../local/s3';
import { startLocalScheduler } from '../local/scheduler';
import { startLocalStripe } from '../local/stripe';
import { LOCAL_CREDENTIALS, LOCAL_TABLE, LOCAL_UPLOADS_BUCKET } from '../local/stack';
import { startLocalWebSocketApi } from '../local/websocket';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    s3Endpoint: string;
    schedulerEndpoint: string;
    stripeEndpoint: string;
    stripeSecretKey: string;
    stripeWebhookSecret: string;
    websocketEndpoint: string;
  }
}

/**
 * One in-memory dynalite for the handler tests (a real table with real conditional writes), one
 * local S3 in a temp dir (real signatures, presigned URLs and POST policies), one local Scheduler,
 * one local Stripe and one local WebSocket API management endpoint.
 */
export default async function setup(project: TestProject) {
  const dynamo = await startDynalite();
  const client = localDynamoClient(dynamo.endpoint);
  await ensureTable(client, LOCAL_TABLE);
  await seedCatalog(client, LOCAL_TABLE);
  client.destroy();

  const s3Dir = mkdtempSync(path.join(tmpdir(), 'marketplace-s3-'));
  const s3 = await startLocalS3(s3Dir, LOCAL_CREDENTIALS);
  const s3Client = localS3Client(s3.endpoint, LOCAL_CREDENTIALS);
  await ensureBucket(s3Client, LOCAL_UPLOADS_BUCKET);
  s3Client.destroy();

  // Schedules are created and deleted for real, but never fire here: tests read them back
  // (GetSchedule) and call the timer functions themselves, at the moment they choose.
  const schedulerDir = mkdtempSync(path.join(tmpdir(), 'marketplace-scheduler-'));
  const scheduler = await startLocalScheduler(schedulerDir, async () => {});

  // Sessions, accounts and transfers are made for real; its hosted pages are not driven here, and the
  // webhook tests build and sign their own events with the webhook secret, so nothing is delivered.
  const stripeDir = mkdtempSync(path.join(tmpdir(), 'marketplace-stripe-'));
  const stripe = await startLocalStripe(stripeDir, { deliver: async () => {} });

  // Only the @connections endpoint: tests have no browser, so they register recording connections
  // through its /_local inspection API (functions/lib/testing/sockets.ts) and read what was posted.
  const websocket = await startLocalWebSocketApi();

  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('schedulerEndpoint', scheduler.endpoint);
  project.provide('stripeEndpoint', stripe.endpoint);
  project.provide('stripeSecretKey', stripe.secretKey);
  project.provide('stripeWebhookSecret', stripe.webhookSecret);
  project.provide('websocketEndpoint', websocket.endpoint);
  return async () => {
    await Promise.all([dynamo.close(), s3.close(), scheduler.close(), stripe.close(), websocket.close()]);
    rmSync(s3Dir, { recursive: true, force: true });
    rmSync(schedulerDir, { recursive: true, force: true });
    rmSync(stripeDir, { recursive: true, force: true });
  };
}
