/**
 * Write-sharded lists. A list every item of a kind is filed in (every job, every worker) would put
 * all of that kind's writes on one index partition: with projection ALL, each update of an item
 * rewrites its copy there, and one partition takes at most 1,000 WCU a second. Such a list is
 * spread over a fixed number of partitions, `<NAME>#<shard>`, and read by merging them
 * (functions/common/data/page.ts).
 *
 * An item's shard is a hash of its primary-key partition, which is built from its id alone, so
 * every write of the item lands in the same shard and no write needs to read it first.
 */
export function shardOf(partitionKey: string, shards: number): number {
  // FNV-1a over the UTF-16 units, then murmur3's finaliser: FNV alone leaves the low bits, which
  // the modulo keeps, poorly mixed for keys that differ only in their last characters.
  let hash = 0x811c9dc5;
  for (let i = 0; i < partitionKey.length; i++) {
    hash ^= partitionKey.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) % shards;
}
