import type { TestProject } from 'vitest/node';
import { ensureTable, localDynamoClient, seedCatalog, startDynalite } from '../local/dynamo';
import { LOCAL_TABLE } from '../local/stack';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/** One in-memory dynalite for the handler tests: a real table with real conditional writes. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynalite();
  const client = localDynamoClient(dynamo.endpoint);
  await ensureTable(client, LOCAL_TABLE);
  await seedCatalog(client, LOCAL_TABLE);
  client.destroy();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.close();
}
