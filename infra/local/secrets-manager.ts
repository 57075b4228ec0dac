import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { secretIdVariables, type SecretName } from '../../shared/secrets';
import { readBody, sendJson } from './http-io';
import { writePrivateFile } from './private-file';

/**
 * A local AWS Secrets Manager for the embedded runtime, so functions/common/secrets.ts (the real
 * @aws-sdk/client-secrets-manager, pointed here by SECRETS_MANAGER_ENDPOINT) reads secrets locally
 * exactly as it does in the cloud. It speaks the SDK's JSON 1.1 protocol (`POST /`,
 * `X-Amz-Target: secretsmanager.<Operation>`, errors as `{ __type, message }`) for:
 *
 * - GetSecretValue (by name or ARN; the current version, or one VersionId);
 * - CreateSecret and PutSecretValue (SecretString only), which seed and rotate secrets; a repeated
 *   ClientRequestToken with the same value is answered again rather than making a second version.
 *
 * Signatures are not checked (the other local services' credentials are public constants too); it
 * listens on loopback only. The secrets live in `<dir>/secrets.json`, written 0600 like the local
 * Stripe's and VAPID key files, so they survive a restart; a secret put with `keep: false` (a
 * developer's real Stripe key) lives in memory only and is never written to disk.
 */

export interface LocalSecretsManager {
  /** `http://127.0.0.1:<port>`: SECRETS_MANAGER_ENDPOINT. */
  endpoint: string;
  /** Creates the secret or puts a new current value (a rotation); `keep: false` never writes it to disk. */
  put(secretId: string, value: Record<string, string>, options?: { keep?: boolean }): void;
  /** The current value of a secret, undefined when there is none. */
  get(secretId: string): Record<string, string> | undefined;
  /** The ids of the marketplace's secrets held here, by name: what the functions' *_SECRET_ID say. */
  secretIds(): Partial<Record<SecretName, string>>;
  close(): Promise<void>;
}

/** The id of one of the marketplace's secrets in the local runtime, as `marketplace/<stage>/<name>` in the cloud. */
export function localSecretId(name: SecretName): string {
  return `marketplace/local/${name}`;
}

/**
 * The functions' environment for the secrets held here: the endpoint, and the id of each of the
 * marketplace's secrets that exists (a name with no secret gets no variable, as a function the stack
 * grants nothing to).
 */
export function localSecretsEnv(secrets: Pick<LocalSecretsManager, 'endpoint' | 'secretIds'>): Record<string, string> {
  const env: Record<string, string> = { SECRETS_MANAGER_ENDPOINT: secrets.endpoint };
  for (const [name, id] of Object.entries(secrets.secretIds()) as [SecretName, string][]) env[secretIdVariables[name]] = id;
  return env;
}

/**
 * Puts a marketplace secret unless one is already held: for values the runtime makes up once and keeps
 * (a setup code), where a restart must not replace what a person was shown. Answers the value held.
 */
export function ensureLocalSecret(secrets: LocalSecretsManager, name: SecretName, create: () => Record<string, string>): Record<string, string> {
  const id = localSecretId(name);
  const held = secrets.get(id);
  if (held) return held;
  const value = create();
  secrets.put(id, value);
  return value;
}

/** Puts a marketplace secret's value (a no-op when it is already that value, so its version stays). */
export function seedLocalSecret(secrets: LocalSecretsManager, name: SecretName, value: Record<string, string>, options?: { keep?: boolean }): void {
  const id = localSecretId(name);
  const held = secrets.get(id);
  if (held && JSON.stringify(held) === JSON.stringify(value)) return;
  secrets.put(id, value, options);
}

interface StoredSecret {
  name: string;
  arn: string;
  created: number;
  /** The versions by id; `current` names the AWSCURRENT one. */
  versions: Record<string, { secretString: string; created: number; token?: string }>;
  current: string;
  /** Kept in memory only (never written to the file). */
  memoryOnly?: boolean;
}

const FILE = 'secrets.json';
const REGION = 'us-east-1';
const ACCOUNT = '000000000000';
const MAX_BODY_BYTES = 128 * 1024;
/** Secrets Manager's own limits on a name and a value. */
const NAME = /^[A-Za-z0-9/_+=.@-]{1,512}$/;
const MAX_SECRET_BYTES = 65_536;

class SecretsError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const notFound = () => new SecretsError(400, 'ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
const invalid = (message: string) => new SecretsError(400, 'InvalidParameterException', message);

/** A local Secrets Manager on a free loopback port, keeping its secrets under `dir`. */
export async function startLocalSecretsManager(dir: string): Promise<LocalSecretsManager> {
  const root = path.resolve(dir);
  mkdirSync(root, { recursive: true });
  const file = path.join(root, FILE);
  const secrets = load(file);

  const save = () => {
    const kept = [...secrets.values()].filter((s) => !s.memoryOnly);
    writePrivateFile(file, JSON.stringify(kept, null, 2));
  };

  const find = (secretId: unknown): StoredSecret | undefined => {
    if (typeof secretId !== 'string' || !secretId) throw invalid('You must provide a SecretId.');
    return secrets.get(secretId) ?? [...secrets.values()].find((s) => s.arn === secretId);
  };

  const putValue = (secret: StoredSecret, secretString: string, token?: string): string => {
    const versionId = token ?? randomUUID();
    secret.versions = { [versionId]: { secretString, created: nowSeconds(), ...(token ? { token } : {}) }, ...previousOf(secret) };
    secret.current = versionId;
    return versionId;
  };

  const operations: Record<string, (input: Record<string, unknown>) => unknown> = {
    GetSecretValue: (input) => {
      const secret = find(input.SecretId);
      if (!secret) throw notFound();
      if (input.VersionStage !== undefined && input.VersionStage !== 'AWSCURRENT') {
        throw new SecretsError(400, 'ResourceNotFoundException', `The local Secrets Manager keeps only AWSCURRENT, not ${String(input.VersionStage)}.`);
      }
      const versionId = typeof input.VersionId === 'string' ? input.VersionId : secret.current;
      const version = secret.versions[versionId];
      if (!version) throw notFound();
      return {
        ARN: secret.arn,
        Name: secret.name,
        VersionId: versionId,
        SecretString: version.secretString,
        VersionStages: versionId === secret.current ? ['AWSCURRENT'] : [],
        CreatedDate: version.created,
      };
    },
    CreateSecret: (input) => {
      const name = input.Name;
      if (typeof name !== 'string' || !NAME.test(name)) throw invalid('The secret name must be 1 to 512 of A-Z a-z 0-9 /_+=.@-.');
      const secretString = secretStringOf(input);
      const token = typeof input.ClientRequestToken === 'string' ? input.ClientRequestToken : undefined;
      const existing = secrets.get(name);
      if (existing) {
        // The SDK sends a ClientRequestToken and retries with the same one: a retry is not a conflict.
        if (token && existing.versions[token]?.secretString === secretString) return { ARN: existing.arn, Name: existing.name, VersionId: token };
        throw new SecretsError(400, 'ResourceExistsException', `The operation failed because the secret ${name} already exists.`);
      }
      const secret: StoredSecret = { name, arn: arnOf(name), created: nowSeconds(), versions: {}, current: '' };
      const versionId = putValue(secret, secretString, token);
      secrets.set(name, secret);
      save();
      return { ARN: secret.arn, Name: name, VersionId: versionId };
    },
    PutSecretValue: (input) => {
      const secret = find(input.SecretId);
      if (!secret) throw notFound();
      const secretString = secretStringOf(input);
      const token = typeof input.ClientRequestToken === 'string' ? input.ClientRequestToken : undefined;
      if (token && secret.versions[token]) {
        if (secret.versions[token].secretString !== secretString) {
          throw new SecretsError(400, 'ResourceExistsException', `A version with ClientRequestToken ${token} already exists with another value.`);
        }
        return { ARN: secret.arn, Name: secret.name, VersionId: token, VersionStages: token === secret.current ? ['AWSCURRENT'] : [] };
      }
      const versionId = putValue(secret, secretString, token);
      save();
      return { ARN: secret.arn, Name: secret.name, VersionId: versionId, VersionStages: ['AWSCURRENT'] };
    },
  };

  const server: Server = createServer((req, res) => {
    handle(req)
      .then((body) => sendJson(res, 200, body))
      .catch((error: unknown) => {
        if (!(error instanceof SecretsError)) console.error('local Secrets Manager:', error);
        const e = error instanceof SecretsError ? error : new SecretsError(500, 'InternalServiceError', 'The local Secrets Manager failed.');
        res.setHeader('x-amzn-ErrorType', e.code);
        sendJson(res, e.status, { __type: e.code, message: e.message });
      });
  });

  const handle = async (req: IncomingMessage): Promise<unknown> => {
    const body = await readBody(req, MAX_BODY_BYTES, () => invalid('The request body is too large.'));
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.startsWith('secretsmanager.') ? operations[target.slice('secretsmanager.'.length)] : undefined;
    if (req.method !== 'POST' || !operation) {
      throw new SecretsError(400, 'UnknownOperationException', `The local Secrets Manager does not implement ${target || `${req.method} ${req.url}`}.`);
    }
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
    } catch {
      throw new SecretsError(400, 'SerializationException', 'The request body is not JSON.');
    }
    return operation(input);
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    put: (secretId, value, options = {}) => {
      const secretString = JSON.stringify(value);
      const existing = find(secretId);
      if (existing) {
        putValue(existing, secretString);
        existing.memoryOnly = options.keep === false;
      } else {
        if (!NAME.test(secretId)) throw new Error(`Not a secret name: ${secretId}`);
        const secret: StoredSecret = { name: secretId, arn: arnOf(secretId), created: nowSeconds(), versions: {}, current: '', ...(options.keep === false ? { memoryOnly: true } : {}) };
        putValue(secret, secretString);
        secrets.set(secretId, secret);
      }
      save();
    },
    get: (secretId) => {
      const secret = find(secretId);
      if (!secret) return undefined;
      return JSON.parse(secret.versions[secret.current]!.secretString) as Record<string, string>;
    },
    secretIds: () => {
      const ids: Partial<Record<SecretName, string>> = {};
      for (const name of Object.keys(secretIdVariables) as SecretName[]) if (secrets.has(localSecretId(name))) ids[name] = localSecretId(name);
      return ids;
    },
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      })),
  };
}

/** Only the version before the new one is kept (AWSPREVIOUS), as readable by its VersionId. */
function previousOf(secret: StoredSecret): StoredSecret['versions'] {
  const current = secret.versions[secret.current];
  return current ? { [secret.current]: current } : {};
}

function secretStringOf(input: Record<string, unknown>): string {
  if (input.SecretBinary !== undefined) throw invalid('The local Secrets Manager keeps SecretString values only.');
  const value = input.SecretString;
  if (typeof value !== 'string' || !value) throw invalid('You must provide a SecretString.');
  if (Buffer.byteLength(value) > MAX_SECRET_BYTES) throw invalid('The secret value is larger than 65,536 bytes.');
  return value;
}

/** Secrets Manager appends six random characters to a secret's name in its ARN. */
function arnOf(name: string): string {
  const suffix = randomBytes(6).toString('base64url').replace(/[^A-Za-z0-9]/g, 'x').slice(0, 6);
  return `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${name}-${suffix}`;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function load(file: string): Map<string, StoredSecret> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  let list: StoredSecret[];
  try {
    list = JSON.parse(text) as StoredSecret[];
    if (!Array.isArray(list)) throw new Error('not a list');
  } catch {
    throw new Error(`${file} does not hold the local secrets. Delete it: the runtime seeds its Stripe and VAPID secrets again at start.`);
  }
  return new Map(list.map((s) => [s.name, s]));
}
