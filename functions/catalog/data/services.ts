import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { serviceEntity, type ServiceItem } from '../../../shared/entities';
import type { Service } from '../../../shared/schemas/service';
import { dynamo, tableName } from '../../common/clients';
import { queryAll } from '../../common/data/query';
import { declareTableUse } from '../../../shared/entities';

function toService(item: ServiceItem): Service {
  const { id, slug, name, description, category, included } = item;
  return { id, slug, name, description, category, included };
}

export const servicesRepo = {
  async listAll(): Promise<Service[]> {
    const items = await queryAll(serviceEntity.range());
    return items.sort((a, b) => a.position - b.position).map(toService);
  },

  async findBySlug(slug: string): Promise<Service | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: serviceEntity.key(slug) }));
    return out.Item ? toService(out.Item as ServiceItem) : undefined;
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [serviceEntity] });
