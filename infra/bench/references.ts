import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundle, type Bundle } from './lambda';

/**
 * The baselines a function's cold import is judged against: the SDK clients it uses and nothing
 * else, once bundled exactly like a function and once loaded unbundled from node_modules.
 */
export interface Reference {
  /** Stable name of the client set, e.g. "client-dynamodb+lib-dynamodb", or "none". */
  key: string;
  packages: string[];
  bundled: Bundle;
  /** The generated entry itself, importing from /work/main/node_modules at run time. */
  unbundledFile: string;
}

const DOCUMENT_CLIENT = '@aws-sdk/lib-dynamodb';
const DYNAMODB_CLIENT = '@aws-sdk/client-dynamodb';
const STRIPE = 'stripe';
const WEB_PUSH = 'web-push';

export function clientSetKey(packages: string[]): string {
  return packages.length ? packages.map((p) => p.replace('@aws-sdk/', '')).join('+') : 'none';
}

/** A service package exports exactly one `<Service>Client` class; find it rather than guess from the name. */
async function clientClassName(pkg: string): Promise<string> {
  const exports = Object.keys(await import(pkg));
  const name = exports.find((e) => /^[A-Z]\w*Client$/.test(e));
  if (!name) throw new Error(`No *Client class exported by ${pkg}`);
  return name;
}

/**
 * Source that imports the clients and constructs each once at module scope, as the functions do
 * (construction loads the default config and middleware; importing alone would flatter the SDK).
 */
export async function referenceSource(packages: string[]): Promise<string> {
  if (!packages.length) return 'export {};\n';
  // The document client only wraps a DynamoDB client, so that one must exist to build it.
  const services = packages.filter((p) => p !== DOCUMENT_CLIENT && p !== STRIPE && p !== WEB_PUSH);
  if (packages.includes(DOCUMENT_CLIENT) && !services.includes(DYNAMODB_CLIENT)) services.push(DYNAMODB_CLIENT);

  const lines: string[] = [];
  const made: string[] = [];
  for (const [i, pkg] of services.entries()) {
    const cls = await clientClassName(pkg);
    lines.unshift(`import { ${cls} } from '${pkg}';`);
    lines.push(`const c${i} = new ${cls}({ region: 'us-east-1' });`);
    made.push(`c${i}`);
    if (pkg === DYNAMODB_CLIENT && packages.includes(DOCUMENT_CLIENT)) {
      lines.unshift(`import { DynamoDBDocumentClient } from '${DOCUMENT_CLIENT}';`);
      made.push(`DynamoDBDocumentClient.from(c${i})`);
    }
  }
  if (packages.includes(STRIPE)) {
    lines.unshift(`import Stripe from '${STRIPE}';`);
    lines.push(`const stripe = new Stripe('sk_test_reference');`);
    made.push('stripe');
  }
  if (packages.includes(WEB_PUSH)) {
    lines.unshift(`import webpush from '${WEB_PUSH}';`);
    made.push('webpush');
  }
  lines.push(`export const clients = [${made.join(', ')}];`);
  return `${lines.join('\n')}\n`;
}

/** Writes the entry under `dir` (inside the project, so Node finds node_modules) and bundles it. */
export async function buildReference(root: string, dir: string, packages: string[]): Promise<Reference> {
  const key = clientSetKey(packages);
  const refDir = path.join(dir, key);
  mkdirSync(refDir, { recursive: true });
  const unbundledFile = path.join(refDir, 'unbundled.mjs');
  writeFileSync(unbundledFile, await referenceSource(packages));
  const bundled = await bundle(root, unbundledFile, path.join(refDir, 'bundle', 'index.mjs'));
  return { key, packages, bundled, unbundledFile };
}
