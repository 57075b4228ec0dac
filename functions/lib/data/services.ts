import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Service } from '../../../shared/schemas/service';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import type { ServiceItem } from './items';

function toService(item: ServiceItem): Service {
  const { id, slug, name, description, category, included } = item;
  return { id, slug, name, description, category, included };
}

export const servicesRepo = {
  async listAll(): Promise<Service[]> {
    const { pk, sk } = keys.catalog();
    const out = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': pk, ':sk': sk },
      }),
    );
    const items = (out.Items ?? []) as ServiceItem[];
    return items.sort((a, b) => a.position - b.position).map(toService);
  },

  async findBySlug(slug: string): Promise<Service | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.service(slug) }));
    return out.Item ? toService(out.Item as ServiceItem) : undefined;
  },
};
