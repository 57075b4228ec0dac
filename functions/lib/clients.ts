import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { env } from './env';

/** Created once per container; the endpoint is the only thing the local runtime changes. */
export const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: env.AWS_REGION,
    endpoint: env.DYNAMODB_ENDPOINT,
    requestHandler: { requestTimeout: env.DYNAMODB_TIMEOUT_MS, throwOnRequestTimeout: true, connectionTimeout: env.DYNAMODB_TIMEOUT_MS },
  }),
  { marshallOptions: { removeUndefinedValues: true } },
);

export const tableName = env.TABLE_NAME;
