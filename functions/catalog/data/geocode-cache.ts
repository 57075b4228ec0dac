import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AddressSuggestion } from '../../../shared/schemas/job';
import { geocodeEntity, type GeocodeItem } from '../../../shared/entities';
import { table } from '../../../shared/table';
import { dynamo, tableName } from '../../common/clients';
import { putOf } from '../../common/data/expressions';
import { declareTableUse } from '../../../shared/entities';

/** Addresses change rarely; a month keeps repeated searches off the geocoder's rate limit. */
export const GEOCODE_CACHE_SECONDS = 30 * 24 * 3600;

const epochSeconds = (at: Date) => Math.floor(at.getTime() / 1000);

/** Geocoder answers by normalised query (`rev:<lat>,<lng>` for reverse lookups). */
export const geocodeCache = {
  /** A cached answer still within its TTL (DynamoDB removes expired items only eventually). */
  async findFresh(cacheKey: string, now = new Date()): Promise<AddressSuggestion[] | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: geocodeEntity.key(cacheKey) }));
    const item = out.Item as GeocodeItem | undefined;
    if (!item || item[table.ttlAttribute] <= epochSeconds(now)) return undefined;
    return item.suggestions;
  },

  /** Only answers the geocoder actually gave are remembered; failures are retried next time. */
  async remember(cacheKey: string, suggestions: AddressSuggestion[], now = new Date()): Promise<void> {
    const item: GeocodeItem = {
      ...geocodeEntity.key(cacheKey),
      entity: 'geocode',
      suggestions,
      cachedAt: now.toISOString(),
      [table.ttlAttribute]: epochSeconds(now) + GEOCODE_CACHE_SECONDS,
    };
    await dynamo.send(new PutCommand(putOf(geocodeEntity, item)));
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [geocodeEntity], writes: [geocodeEntity] });
