import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { outboundMailEntity, workerAccountLinkEntity, type WorkerAccountLinkItem } from '../../../shared/entities';
import { deleteRowsOf } from '../../common/auth/person-rows';
import { hashSecret, newSecret } from '../../common/auth/tokens';
import { dynamo, tableName } from '../../common/clients';
import { newId } from '../../common/ids';
import type { MailMessage } from '../../mail/message';
import { conditionOf, isNew, putOf, updateOf } from '../../common/data/expressions';
import { outboxPut } from '../../mail/data/mail';
import { writeTogether, WriteCancelled, type WriteAction } from '../../common/data/transact';
import { declareTableUse } from '../../../shared/entities';

export type { WorkerAccountLinkItem } from '../../../shared/entities';

/** Why a link sets no password: spent already, past its time, or not one we issued. */
export type AccountLinkRefusal = 'used' | 'expired' | 'unknown';

/** What the signup page shows (the create and check routes answer it with 410) for a link that sets no password, beside "Send a new link". */
export const ACCOUNT_LINK_REFUSED: Record<AccountLinkRefusal, string> = {
  used: 'This link has already been used: each link sets up the account once. Log in with your password, or send a new link.',
  expired: 'This link has expired. Send a new link to the email you applied with.',
  unknown: 'This link does not work. Open it again from the mail exactly as it was sent, or send a new link.',
};

/** The link's address has no application under review or approved any more (a rejection, say). */
export const NO_APPLICATION =
  'No application under review or approved uses this email, so no account can be made with it. Apply first, or log in if you have an account.';

const nowSeconds = () => Math.floor(Date.now() / 1000);

function refusalOf(item: WorkerAccountLinkItem | undefined): AccountLinkRefusal | undefined {
  if (!item) return 'unknown';
  if (item.usedAt) return 'used';
  if (item.expiresAt <= nowSeconds()) return 'expired';
  return undefined;
}

async function read(key: { pk: string; sk: string }): Promise<WorkerAccountLinkItem | undefined> {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return out.Item as WorkerAccountLinkItem | undefined;
}

/**
 * The single-use links that set a pro account's password for the address an application gave
 * (README, "Who may do what"). The same pattern as password-reset links: 256 random bits, only
 * their SHA-256 stored, the mail carrying the secret written in the same write as the record.
 */
export const workerAccountLinks = {
  /**
   * The writes of a new link for `email`, lasting `seconds`: its record and the mail `mail` makes
   * of it, to spread into the write of whatever the mail tells about (an application, an approval),
   * so there is never a link without its mail or a mail without its link.
   */
  writes(email: string, seconds: number, mail: (link: { id: string; secret: string }) => MailMessage): WriteAction[] {
    const secret = newSecret();
    const id = newId();
    const now = new Date();
    const item: WorkerAccountLinkItem = {
      ...workerAccountLinkEntity.key(hashSecret(secret)),
      ...workerAccountLinkEntity.indexes.of.key(email, now.toISOString()),
      entity: 'worker-account-link',
      id,
      email: email.trim().toLowerCase(),
      createdAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + seconds,
    };
    return [{ Put: putOf(workerAccountLinkEntity, item, isNew) }, outboxPut(mail({ id, secret }))];
  },

  /** A new link and its mail, on their own. */
  async issue(email: string, seconds: number, mail: (link: { id: string; secret: string }) => MailMessage): Promise<void> {
    await writeTogether(this.writes(email, seconds, mail));
  },

  /**
   * The same round trip as `issue`, writing nothing: an address that may have no account costs
   * what one that may costs, so the answer's timing does not tell them apart.
   */
  async issueNone(): Promise<void> {
    await writeTogether([
      { ConditionCheck: { TableName: tableName, Key: workerAccountLinkEntity.key(hashSecret(newSecret())), ...conditionOf(workerAccountLinkEntity, isNew) } },
      { ConditionCheck: { TableName: tableName, Key: outboundMailEntity.key('worker-account-link', newId()), ...conditionOf(outboundMailEntity, isNew) } },
    ]).catch((error: unknown) => {
      // Nobody holds a fresh random key; a refusal here would change nothing either way.
      if (!(error instanceof WriteCancelled)) throw error;
    });
  },

  /** The usable link a secret names, or why it is not one. */
  async find(secret: string): Promise<{ link: WorkerAccountLinkItem } | { refused: AccountLinkRefusal }> {
    const item = await read(workerAccountLinkEntity.key(hashSecret(secret)));
    const refused = refusalOf(item);
    return refused ? { refused } : { link: item! };
  },

  /**
   * The write that spends the link, to go in the same transaction as the password it sets: its
   * condition (not used, not expired) decides which of two submits at once sets the password.
   */
  spend(link: WorkerAccountLinkItem): WriteAction {
    const now = nowSeconds();
    return {
      Update: updateOf(workerAccountLinkEntity, { pk: link.pk, sk: link.sk }, {
        set: { usedAt: new Date().toISOString() },
        if: (c) => c.and(c.exists('pk'), c.notExists('usedAt'), c.gt('expiresAt', now)),
      }),
    };
  },

  /** Why the link's spend was refused, read again after a write that refused it ('conflict': it was not spent). */
  async refusalAfterSpend(link: WorkerAccountLinkItem): Promise<AccountLinkRefusal | 'conflict'> {
    return refusalOf(await read({ pk: link.pk, sk: link.sk })) ?? 'conflict';
  },

  /** Ends every other link mailed to the address, once one of them has set the password. */
  async endAllOf(email: string, keepPk?: string): Promise<void> {
    await deleteRowsOf(workerAccountLinkEntity.indexes.of.range(email), { keep: keepPk ? [keepPk] : [] });
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [outboundMailEntity, workerAccountLinkEntity], writes: [outboundMailEntity, workerAccountLinkEntity] });
