import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/entities';
import { handler } from './check-worker-account-link';
import { handler as createAccount } from './create-worker-account';
import { dynamo, tableName } from '../common/clients';
import { ACCOUNT_LINK_REFUSED } from './data/worker-account-links';
import { accountLinkOf, issueAccountLink, receivedMailToken } from '../testing/account-links';
import { pendingApplication } from '../testing/applications';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { createTestWorker } from '../testing/workers';

const check = (token: string) => invoke(handler, withBody(sampleEvent('check-worker-account-link'), { token }));

describe('POST /api/workers/account-link/check', () => {
  it("names the link's address and that no account uses it yet, and spends nothing", async () => {
    // Prepare
    const { id, body } = await pendingApplication();
    const token = await receivedMailToken(id);

    // Act
    const res = await check(token);

    // Assess
    expect(res).toMatchObject({ status: 200, body: { email: body.emailAddress.toLowerCase(), accountExists: false } });
    expect(await accountLinkOf(token)).not.toHaveProperty('usedAt');
  });

  it('says when an account already exists for the address, so the page can say the link replaces its password', async () => {
    const worker = await createTestWorker({ hasAccount: true });
    await dynamo.send(
      new PutCommand({ TableName: tableName, Item: { ...keys.workerAccount(worker.id), entity: 'worker-account', workerId: worker.id, passwordHash: 'scrypt$x', createdAt: new Date().toISOString() } }),
    );

    const res = await check(await issueAccountLink(worker.email));

    expect(res).toMatchObject({ status: 200, body: { email: worker.email, accountExists: true } });
  });

  it('answers a used link and a made-up one with 410 and the sentence the page shows', async () => {
    // Prepare
    const worker = await createTestWorker();
    const used = await issueAccountLink(worker.email);
    const password = 'correct-horse-42';
    expect((await invoke(createAccount, withBody(sampleEvent('create-worker-account'), { token: used, password, confirmPassword: password }))).status).toBe(201);

    // Act
    const again = await check(used);
    const madeUp = await check('Tm90QVJlYWxMaW5rQnV0U2hhcGVkTGlrZU9uZTAxMjM');

    // Assess
    expect(again).toMatchObject({ status: 410, body: { message: ACCOUNT_LINK_REFUSED.used } });
    expect(madeUp).toMatchObject({ status: 410, body: { message: ACCOUNT_LINK_REFUSED.unknown } });
  });
});
