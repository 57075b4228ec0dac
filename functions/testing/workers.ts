import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { keys } from '../../shared/entities';
import { sessions } from '../common/auth/sessions';
import { dynamo, tableName } from '../common/clients';
import type { EmailClaimItem } from '../applications/data/applications';
import type { WorkerItem } from '../workers/data/workers';
import { newId } from '../common/ids';

/**
 * An approved worker, as approval leaves it: the profile (active, no account yet, not available,
 * clocked out) and the email claim naming it. Fresh id and email every call, so any test file may
 * use it on the shared table. No login account: give one with workersRepo.createAccount.
 */
export async function createTestWorker(overrides: Partial<WorkerItem> = {}): Promise<WorkerItem> {
  const id = overrides.id ?? newId();
  const email = (overrides.email ?? `worker-${randomUUID()}@example.com`).toLowerCase();
  const now = new Date().toISOString();
  const worker: WorkerItem = {
    entity: 'worker',
    applicationId: newId(),
    fullName: 'Test Worker',
    phone: '555-010-0199',
    address: '12 Elm Street, Springfield',
    status: 'active',
    strikes: 0,
    isVerified: true,
    isAvailable: false,
    isClockedIn: false,
    lastClockIn: null,
    yearsExp: 5,
    categories: ['plumbing'],
    hourlyRate: 4500,
    workerType: null,
    profilePhotoKey: null,
    hasAccount: false,
    createdAt: now,
    updatedAt: now,
    ...overrides,
    id,
    email,
    ...keys.worker(id),
    ...keys.allWorkers(id, overrides.createdAt ?? now),
  };
  const claim: EmailClaimItem = {
    ...keys.email(email),
    entity: 'email-claim',
    email,
    applicationId: worker.applicationId,
    workerId: id,
    createdAt: now,
  };
  await Promise.all([
    dynamo.send(new PutCommand({ TableName: tableName, Item: worker })),
    dynamo.send(new PutCommand({ TableName: tableName, Item: claim })),
  ]);
  return worker;
}

/** A live worker session for the worker: the bearer secret, as login would return it. */
export async function workerToken(workerId: string): Promise<string> {
  const { secret } = await sessions.start('worker', workerId, 'test-worker');
  return secret;
}

/** The event with `Authorization: Bearer <token>`. */
export function withBearer(event: APIGatewayProxyEventV2, token: string): APIGatewayProxyEventV2 {
  return { ...event, headers: { ...event.headers, authorization: `Bearer ${token}` } };
}
