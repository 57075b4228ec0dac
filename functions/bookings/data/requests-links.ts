import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  customerAccountEntity,
  customerEmailEntity,
  requestsLinkEntity,
  type CustomerAccountItem,
  type CustomerEmailItem,
  type RequestsLinkItem,
} from '../../../shared/entities';
import { hashSecret, newSecret, sameSecret } from '../../common/auth/tokens';
import { dynamo, tableName } from '../../common/clients';
import { newId } from '../../common/ids';
import type { MailMessage } from '../../mail/message';
import { isNew, putOf, updateOf } from '../../common/data/expressions';
import { outboxPut } from '../../mail/data/mail';
import { writeTogether } from '../../common/data/transact';
import { queryAll } from '../../common/data/query';
import { lostRace, tryUpdate } from '../../common/data/write';
import { declareTableUse } from '../../../shared/entities';

/** How long a requests link works: long enough to open the mail, short enough that an old one is worthless. */
export const REQUESTS_LINK_SECONDS = 15 * 60;
/**
 * The identities an address's gathering reads (its CUSTOMER# items): a person's browsers and
 * devices, and whoever else typed the address. Past this, the rest wait for the next link.
 */
export const MAX_IDENTITIES_PER_ADDRESS = 50;

const nowSeconds = () => Math.floor(Date.now() / 1000);
const askedBy = (link: Pick<RequestsLinkItem, 'askedBy'>, askingSecret: string | undefined) =>
  askingSecret !== undefined && sameSecret(hashSecret(askingSecret), link.askedBy);
const normal = (email: string) => email.trim().toLowerCase();

export const requestsLinksRepo = {
  /** Whether any identity made something with this address (a booking, request or hire). */
  async addressKnown(email: string): Promise<boolean> {
    const found = await queryAll({ ...customerEmailEntity.range(normal(email), ''), limit: 1, projection: 'pk' });
    return found.length > 0;
  },

  /**
   * A new link for the address: its secret (for the mail only) and its id (the mail's subject).
   * `askedBy`: the asking browser's secret (functions/bookings/requests-link-cookie.ts), kept hashed;
   * `mail`: the message that carries the link, put in the outbox with it.
   */
  async create(email: string, askedBy: string, mail?: (link: { id: string; secret: string }) => MailMessage): Promise<{ secret: string; id: string }> {
    const secret = newSecret();
    const now = new Date();
    const item: RequestsLinkItem = {
      ...requestsLinkEntity.key(hashSecret(secret)),
      entity: 'requests-link',
      id: newId(),
      email: normal(email),
      askedBy: hashSecret(askedBy),
      createdAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + REQUESTS_LINK_SECONDS,
    };
    // The link and its mail are one write: no link without its mail, no mail without its link.
    const put = { Put: putOf(requestsLinkEntity, item, isNew) };
    await writeTogether(mail ? [put, outboxPut(mail({ id: item.id, secret }))] : [put]);
    return { secret, id: item.id };
  },

  /**
   * Reads the link without spending it: the address it is for, and whether `askingSecret` is the
   * asking browser's; undefined when it is unknown, used already or expired.
   */
  async readUnspent(secret: string, askingSecret: string | undefined): Promise<{ email: string; askedHere: boolean } | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: requestsLinkEntity.key(hashSecret(secret)), ConsistentRead: true }));
    const link = out.Item as RequestsLinkItem | undefined;
    if (!link || link.usedAt !== undefined || link.expiresAt <= nowSeconds()) return undefined;
    return { email: link.email, askedHere: askedBy(link, askingSecret) };
  },

  /**
   * Spends the link in one conditional write: the address it was for, and whether `askingSecret`
   * is the asking browser's; undefined when it is unknown, used already or expired (the TTL deletes
   * late, so the time is checked here). Two opens at once: one write wins, the other is refused.
   */
  async consume(secret: string, askingSecret: string | undefined): Promise<{ email: string; askedHere: boolean } | undefined> {
    const used = await tryUpdate(
      updateOf(requestsLinkEntity, requestsLinkEntity.key(hashSecret(secret)), {
        set: { usedAt: new Date().toISOString() },
        if: (c) => c.and(c.exists('pk'), c.notExists('usedAt'), c.gt('expiresAt', nowSeconds())),
      }),
    );
    if (!used) return undefined;
    return { email: used.email, askedHere: askedBy(used, askingSecret) };
  },

  /** The identities that made something with the address, up to MAX_IDENTITIES_PER_ADDRESS. */
  async identitiesOf(email: string): Promise<string[]> {
    const items = await queryAll<CustomerEmailItem>({ ...customerEmailEntity.range(normal(email), ''), limit: MAX_IDENTITIES_PER_ADDRESS });
    return items.map((item) => item.customerId);
  },

  /** The address's canonical identity, as stored (it may since have been gathered into another). */
  async account(email: string): Promise<CustomerAccountItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: customerAccountEntity.key(email), ConsistentRead: true }));
    return out.Item as CustomerAccountItem | undefined;
  },

  /** Makes `customerId` the address's identity if it has none yet; false when another got there first. */
  async claimAccount(email: string, customerId: string): Promise<boolean> {
    const item: CustomerAccountItem = { ...customerAccountEntity.key(email), entity: 'customer-account', email: normal(email), customerId, since: new Date().toISOString() };
    try {
      await dynamo.send(new PutCommand(putOf(customerAccountEntity, item, isNew)));
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  },

  /** Points the address at the identity its old one was gathered into (shortens the chain; conditional on what was read). */
  async moveAccount(email: string, from: string, to: string): Promise<void> {
    await tryUpdate(
      updateOf(customerAccountEntity, customerAccountEntity.key(email), {
        set: { customerId: to },
        if: (c) => c.eq('customerId', from),
      }),
    );
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [customerAccountEntity, customerEmailEntity, requestsLinkEntity], writes: [customerAccountEntity, customerEmailEntity, requestsLinkEntity] });
