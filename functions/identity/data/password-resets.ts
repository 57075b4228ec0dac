import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  outboundMailEntity,
  ownerEntity,
  passwordResetEntity,
  workerAccountEntity,
  type PasswordResetItem,
  type SignInRole,
} from '../../../shared/entities';
import { deleteRowsOf } from '../../common/auth/person-rows';
import { hashSecret, newSecret } from '../../common/auth/tokens';
import { dynamo, tableName } from '../../common/clients';
import { newId } from '../../common/ids';
import type { MailMessage } from '../../mail/message';
import { conditionOf, isNew, putOf, updateOf } from '../../common/data/expressions';
import { outboxPut } from '../../mail/data/mail';
import { writeTogether, WriteCancelled, type WriteAction } from '../../common/data/transact';
import { declareTableUse } from '../../../shared/entities';

export type { PasswordResetItem } from '../../../shared/entities';

/** Whose password a link may set. */
export interface ResetSubject {
  role: SignInRole;
  subjectId: string;
}

/** Why a link sets no password: spent already, past its time, or not one we issued (or its account is gone). */
export type ResetRefusal = 'used' | 'expired' | 'unknown';

const nowSeconds = () => Math.floor(Date.now() / 1000);

function refusalOf(item: PasswordResetItem | undefined): ResetRefusal | undefined {
  if (!item) return 'unknown';
  if (item.usedAt) return 'used';
  if (item.expiresAt <= nowSeconds()) return 'expired';
  return undefined;
}

/** The write that sets the person's new password hash, conditional on the account still being theirs. */
function passwordUpdate({ role, subjectId }: ResetSubject, passwordHash: string): WriteAction {
  if (role === 'admin') {
    return {
      Update: updateOf(ownerEntity, ownerEntity.key(), {
        set: { passwordHash, updatedAt: new Date().toISOString() },
        if: (c) => c.eq('id', subjectId),
      }),
    };
  }
  return {
    Update: updateOf(workerAccountEntity, workerAccountEntity.key(subjectId), {
      set: { passwordHash },
      if: (c) => c.eq('workerId', subjectId),
    }),
  };
}

export const passwordResets = {
  /**
   * A new link for `subject`, lasting `seconds`: the record (its secret's hash only) and the mail
   * carrying the secret, in one write, so there is never a link without its mail or a mail without
   * its link. The secret leaves this function only inside the mail.
   */
  async issue(subject: ResetSubject, seconds: number, mail: (link: { id: string; secret: string }) => MailMessage): Promise<void> {
    const secret = newSecret();
    const id = newId();
    const now = new Date();
    const item: PasswordResetItem = {
      ...passwordResetEntity.key(hashSecret(secret)),
      ...passwordResetEntity.indexes.of.key(subject.role, subject.subjectId, now.toISOString()),
      entity: 'password-reset',
      id,
      role: subject.role,
      subjectId: subject.subjectId,
      createdAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + seconds,
    };
    await writeTogether([{ Put: putOf(passwordResetEntity, item, isNew) }, outboxPut(mail({ id, secret }))]);
  },

  /**
   * The same round trip as `issue`, writing nothing: an address no account uses costs what a known
   * one costs, so the answer's timing does not tell them apart. Two checks of keys nobody holds.
   */
  async issueNone(): Promise<void> {
    await writeTogether([
      {
        ConditionCheck: {
          TableName: tableName,
          Key: passwordResetEntity.key(hashSecret(newSecret())),
          ...conditionOf(passwordResetEntity, isNew),
        },
      },
      {
        ConditionCheck: {
          TableName: tableName,
          Key: outboundMailEntity.key('password-reset', newId()),
          ...conditionOf(outboundMailEntity, isNew),
        },
      },
    ]).catch((error: unknown) => {
      // Nobody holds a fresh random key; a refusal here would change nothing either way.
      if (!(error instanceof WriteCancelled)) throw error;
    });
  },

  /** The usable link a secret names, or why it is not one. */
  async find(secret: string): Promise<{ link: PasswordResetItem } | { refused: ResetRefusal }> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: passwordResetEntity.key(hashSecret(secret)), ConsistentRead: true }));
    const item = out.Item as PasswordResetItem | undefined;
    const refused = refusalOf(item);
    return refused ? { refused } : { link: item! };
  },

  /**
   * Spends the link and sets the new password hash in one transaction: the link's condition (not
   * used, not expired) decides, so of two submits at once exactly one sets a password and the other
   * finds the link used. Answers undefined when it was spent here, or why it was not.
   */
  async spend(link: PasswordResetItem, passwordHash: string): Promise<ResetRefusal | 'conflict' | undefined> {
    const now = nowSeconds();
    try {
      await writeTogether([
        {
          Update: updateOf(passwordResetEntity, { pk: link.pk, sk: link.sk }, {
            set: { usedAt: new Date().toISOString() },
            if: (c) => c.and(c.exists('pk'), c.notExists('usedAt'), c.gt('expiresAt', now)),
          }),
        },
        passwordUpdate(link, passwordHash),
      ]);
      return undefined;
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      // The account the link names is gone (or is no longer theirs): the link opens nothing.
      if (!error.refusedAt(0)) return 'unknown';
      const again = await dynamo.send(new GetCommand({ TableName: tableName, Key: { pk: link.pk, sk: link.sk }, ConsistentRead: true }));
      // A concurrent transaction on the link that did not spend it: nothing happened, try again.
      return refusalOf(again.Item as PasswordResetItem | undefined) ?? 'conflict';
    }
  },

  /** Ends every other link of the person, once one of them has set a password. */
  async endAllOf({ role, subjectId }: ResetSubject, keepPk?: string): Promise<void> {
    await deleteRowsOf(passwordResetEntity.indexes.of.range(role, subjectId), { keep: keepPk ? [keepPk] : [] });
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [outboundMailEntity, ownerEntity, passwordResetEntity, workerAccountEntity], writes: [outboundMailEntity, ownerEntity, passwordResetEntity, workerAccountEntity] });
