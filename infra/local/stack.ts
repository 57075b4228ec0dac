import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ViteDevServer } from 'vite';
import { ensureTable, localDynamoClient, seedCatalog, startDynalite } from './dynamo';
import { httpApi } from './http-api';

// The laptop runs Node 20 while Lambda runs 22; the SDK's reminder of that is noise here. Set before
// any client exists, including the ones this module creates to prepare the table.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export const LOCAL_TABLE = 'marketplace-local';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface LocalStackOptions {
  port: number;
  dataDir: string;
  /** Serve the web app through Vite on the same port (off for API-only use such as tests of handlers). */
  web?: boolean;
  host?: string;
}

export interface LocalStack {
  url: string;
  dynamoEndpoint: string;
  stop(): Promise<void>;
}

/**
 * The environment every handler reads, exactly as the CDK stack sets it, with local endpoints.
 * The functions run in this process, so it goes on process.env before any handler is imported.
 */
export function localFunctionEnv(dynamoEndpoint: string): Record<string, string> {
  return {
    TABLE_NAME: LOCAL_TABLE,
    STAGE: 'local',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    DYNAMODB_ENDPOINT: dynamoEndpoint,
    PLATFORM_FEE_PERCENT: process.env.PLATFORM_FEE_PERCENT ?? '10',
    SUPPORT_EMAIL: process.env.SUPPORT_EMAIL ?? 'support@fixly.app',
  };
}

export async function prepareData(dataDir: string) {
  const dynamo = await startDynalite(path.join(dataDir, 'dynamodb'));
  const client = localDynamoClient(dynamo.endpoint);
  try {
    await ensureTable(client, LOCAL_TABLE);
    await seedCatalog(client, LOCAL_TABLE);
  } finally {
    client.destroy();
  }
  Object.assign(process.env, localFunctionEnv(dynamo.endpoint));
  return dynamo;
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dynamo = await prepareData(options.dataDir);
  const api = httpApi();
  let vite: ViteDevServer | undefined;
  const server: Server = createServer((req, res) => {
    void api(req, res, () => {
      if (vite) vite.middlewares(req, res);
      else {
        res.statusCode = 404;
        res.end('Not found');
      }
    });
  });
  if (options.web !== false) {
    const { createServer: createVite } = await import('vite');
    vite = await createVite({
      configFile: path.join(root, 'web/vite.config.ts'),
      server: { middlewareMode: true, hmr: { server } },
      appType: 'spa',
      logLevel: 'warn',
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://localhost:${port}`;
  const stackFile = path.join(options.dataDir, 'stack.json');
  // `npm run invoke` finds the running stack here and talks to its dynalite instead of opening the
  // same LevelDB (which one process holds locked).
  writeFileSync(stackFile, JSON.stringify({ url, dynamoEndpoint: dynamo.endpoint, pid: process.pid }));

  let stopping: Promise<void> | undefined;
  return {
    url,
    dynamoEndpoint: dynamo.endpoint,
    stop: () =>
      (stopping ??= (async () => {
        rmSync(stackFile, { force: true });
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await vite?.close();
        await dynamo.close();
      })()),
  };
}
