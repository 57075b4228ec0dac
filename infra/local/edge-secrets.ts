import { randomBytes, randomInt } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { keys } from '../../shared/entities';
import { localDynamoClient } from './dynamo';
import { ensureLocalSecret, localSecretId, seedLocalSecret, type LocalSecretsManager } from './secrets-manager';

/**
 * The local runtime's share of what the cloud stack makes at its first deploy (infra/origin-secret.ts,
 * infra/setup-code.ts): the origin secret the local fronts add to every /api request and /ws
 * handshake as CloudFront does, and the owner setup code.
 */

/** Letters and digits that cannot be taken for one another when copied by hand (no I l 1 O 0 o). */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A setup code like the cloud's: 24 characters of the alphabet above, about 139 random bits. */
export function newSetupCode(): string {
  return Array.from({ length: 24 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

export interface LocalEdgeSecrets {
  /** The origin secret's value now (what the local fronts add); asked at each request. */
  originSecret: () => string | undefined;
  /** The owner setup code, made on the first start and kept in the data folder. */
  setupCode: string;
}

/**
 * Puts both in the local Secrets Manager. The origin secret is new at every start and kept in memory
 * only (nothing outside this process sends it); the setup code is made once and kept with the data,
 * so the code a person was shown stays right across restarts.
 */
export function seedEdgeSecrets(secrets: LocalSecretsManager): LocalEdgeSecrets {
  seedLocalSecret(secrets, 'origin', { value: randomBytes(32).toString('base64url') }, { keep: false });
  const { code } = ensureLocalSecret(secrets, 'setup', () => ({ code: newSetupCode() }));
  return { originSecret: () => secrets.get(localSecretId('origin'))?.value, setupCode: code! };
}

/** Whether the owner account exists yet (the setup page is then no longer needed). */
export async function ownerExists(dynamoEndpoint: string, table: string): Promise<boolean> {
  const client = localDynamoClient(dynamoEndpoint);
  try {
    const out = await client.send(new GetItemCommand({ TableName: table, Key: marshall(keys.owner()), ConsistentRead: true }));
    return Boolean(out.Item);
  } finally {
    client.destroy();
  }
}
