import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { LatLng } from '../../../shared/domain/geo';
import type { ServiceAddressView } from '../../../shared/schemas/service-address';
import { serviceAddressEntity, type ServiceAddressItem } from '../../../shared/entities';
import { table } from '../../../shared/table';
import { dynamo, tableName } from '../../common/clients';
import { putOf } from '../../common/data/expressions';
import { declareTableUse } from '../../../shared/entities';

export type { ServiceAddressItem } from '../../../shared/entities';

/** As long as the customer cookie lasts: an anonymous customer's address outlives neither. */
const KEEP_SECONDS = 365 * 24 * 60 * 60;

/** The one service address each customer saved (CUSTOMER#id / SERVICE_ADDRESS). */
export const serviceAddressesRepo = {
  async find(customerId: string): Promise<ServiceAddressItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: serviceAddressEntity.key(customerId) }));
    const item = out.Item as ServiceAddressItem | undefined;
    // DynamoDB removes expired items only eventually.
    return item && item[table.ttlAttribute] > Math.floor(Date.now() / 1000) ? item : undefined;
  },

  async save(customerId: string, address: string, at: LatLng, now = new Date()): Promise<ServiceAddressItem> {
    const item: ServiceAddressItem = {
      ...serviceAddressEntity.key(customerId),
      entity: 'service-address',
      customerId,
      address,
      lat: at.lat,
      lng: at.lng,
      savedAt: now.toISOString(),
      [table.ttlAttribute]: Math.floor(now.getTime() / 1000) + KEEP_SECONDS,
    };
    await dynamo.send(new PutCommand(putOf(serviceAddressEntity, item)));
    return item;
  },
};

/** What the customer sees of it: the address and when it was saved, not the position. */
export function toServiceAddressView(item: ServiceAddressItem | undefined): ServiceAddressView {
  return { serviceAddress: item ? { address: item.address, savedAt: item.savedAt } : null };
}

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [serviceAddressEntity], writes: [serviceAddressEntity] });
