import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { DocumentFormat, DocumentStatus } from '../../../shared/schemas/document-rules';
import type { DocumentView } from '../../../shared/schemas/documents';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { newId } from '../ids';
import { queryAll } from './query';
import { writeTogether, WriteCancelled, type WriteAction } from './transact';
import type { WorkerItem } from './workers';

/**
 * Worker compliance documents (issue 7). Each version is its own item, DOCUMENT#<id>, with:
 * - gsi1 WORKERDOCS#<worker>: every version of the worker's documents;
 * - gsi2 DOCUMENTS (sparse): current documents only (latest version, not deleted), the owner's list;
 * - gsi3 DOCEXPIRY (sparse): documents that may still expire, by date, read by the daily job with
 *   one Query; an expired, rejected or deleted document leaves it. A replaced version that was
 *   approved stays in it: it is what is in force until its replacement is approved.
 * The id of a document is the id of its upload, so confirming twice (or at once) makes one record.
 */
/** What the view shows is stored as is, except `expiringSoon`, which depends on the day it is read. */
export interface DocumentItem extends Omit<DocumentView, 'expiringSoon'> {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk?: string;
  gsi2sk?: string;
  gsi3pk?: string;
  gsi3sk?: string;
  entity: 'document';
  format: DocumentFormat;
  /**
   * The document's file (documents/<worker>/<id>/<sha256>.<ext>): the bytes the confirm checked,
   * written there by the confirm; never leaves the server.
   */
  key: string;
  /** SHA-256 of the file, hex. */
  contentHash: string;
  reviewedBy: string | null;
  updatedAt: string;
  deletedAt?: string;
  /** Where the file is kept after deletion, for the category's retention period. */
  retainedKey?: string;
  reminded30At?: string;
  reminded7At?: string;
  expiredAt?: string;
}

/**
 * An upload handed out. It may be confirmed for an hour (UPLOAD_CONFIRM_SECONDS); after that the
 * daily purge deletes its file (abandoned, or posted again after the confirm), then the item.
 * The TTL (expiresAt, days later) only tidies what the purge could not.
 */
export interface DocumentUploadItem {
  pk: string;
  sk: string;
  gsi3pk: string;
  gsi3sk: string;
  entity: 'document-upload';
  uploadId: string;
  workerId: string;
  categoryId: string;
  filename: string;
  contentType: string;
  format: DocumentFormat;
  maxBytes: number;
  key: string;
  displayName: string | null;
  description: string | null;
  expirationDate: string | null;
  replacesDocumentId: string | null;
  createdAt: string;
  expiresAt: number;
}

export type AccessType = 'view' | 'download';

/** One row per view or download (stored schema: document_access_logs); never the URL or a token. */
export interface DocumentAccessItem {
  pk: string;
  sk: string;
  entity: 'document-access';
  documentId: string;
  userId: string;
  role: 'worker' | 'admin';
  accessType: AccessType;
  ipAddress: string | null;
  userAgent: string | null;
  success: boolean;
  at: string;
}

const EXPIRABLE: readonly DocumentStatus[] = ['uploaded', 'pending_review', 'approved'];

/**
 * Where uploads' files go (document-uploads/<worker>/<upload>/file.<ext>): the only prefix a
 * presigned POST is handed out for; a document's own file is under documents/.
 */
export const DOCUMENT_UPLOADS_PREFIX = 'document-uploads/';

/** How long an upload may be confirmed after it was handed out. */
export const UPLOAD_CONFIRM_SECONDS = 60 * 60;

function lostRace(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || (error as Error)?.name === 'ConditionalCheckFailedException';
}

/** The item of a new document version, indexed as current and, when it has a date, as expirable. */
export function newDocumentItem(fields: Omit<DocumentItem, 'pk' | 'sk' | 'gsi1pk' | 'gsi1sk' | 'entity' | 'updatedAt'>): DocumentItem {
  return {
    ...keys.document(fields.id),
    ...keys.workerDocuments(fields.workerId, fields.createdAt, fields.id),
    ...keys.allDocuments(fields.createdAt, fields.id),
    ...(fields.expirationDate ? keys.documentExpiry(fields.expirationDate, fields.id) : {}),
    entity: 'document',
    ...fields,
    updatedAt: fields.createdAt,
  };
}

export type StoreOutcome = 'stored' | 'exists' | 'replaced-meanwhile';

export const documentsRepo = {
  async findById(id: string): Promise<DocumentItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.document(id), ConsistentRead: true }));
    return out.Item as DocumentItem | undefined;
  },

  /** The document if it is this worker's and not deleted: anything else is "no such document". */
  async findOwn(workerId: string, id: string): Promise<DocumentItem | undefined> {
    const doc = await documentsRepo.findById(id);
    return doc && doc.workerId === workerId && !doc.deletedAt ? doc : undefined;
  },

  /** Every version of every document of the worker, deleted ones included, oldest first. */
  async allVersionsOf(workerId: string): Promise<DocumentItem[]> {
    return queryAll<DocumentItem>({ index: 'gsi1', pk: keys.workerDocuments(workerId).gsi1pk, skPrefix: 'DOC#' });
  },

  /** Every worker's current documents (the sparse owner's index), oldest first. */
  async allCurrent(): Promise<DocumentItem[]> {
    return queryAll<DocumentItem>({ index: 'gsi2', pk: keys.allDocuments().gsi2pk, skPrefix: 'DOC#' });
  },

  /**
   * Stores a confirmed document, once: conditional on its id being new, and when it replaces one,
   * in the same transaction the old version stops being the latest (conditional on still being it).
   */
  async store(doc: DocumentItem, replacing?: DocumentItem): Promise<StoreOutcome> {
    const actions: WriteAction[] = [{ Put: { TableName: tableName, Item: doc, ConditionExpression: 'attribute_not_exists(pk)' } }];
    if (replacing) {
      // An approved version stays in the expiry index: it is in force until its replacement is approved.
      const keepExpiry = replacing.status === 'approved';
      actions.push({
        Update: {
          TableName: tableName,
          Key: keys.document(replacing.id),
          UpdateExpression: `SET isLatestVersion = :false, updatedAt = :now REMOVE gsi2pk, gsi2sk${keepExpiry ? '' : ', gsi3pk, gsi3sk'}`,
          ConditionExpression: 'isLatestVersion = :true AND attribute_not_exists(deletedAt) AND workerId = :worker',
          ExpressionAttributeValues: { ':false': false, ':true': true, ':now': doc.createdAt, ':worker': doc.workerId },
        },
      });
    }
    try {
      await writeTogether(actions);
      return 'stored';
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      if (error.refusedAt(0)) return 'exists';
      return 'replaced-meanwhile';
    }
  },

  /** Marks the document deleted (once) and takes it out of every list; false if it already was. */
  async markDeleted(doc: DocumentItem, now: string, retainedKey?: string): Promise<boolean> {
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.document(doc.id),
          UpdateExpression: `SET deletedAt = :now, updatedAt = :now${retainedKey ? ', retainedKey = :retained' : ''} REMOVE gsi2pk, gsi2sk, gsi3pk, gsi3sk`,
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt) AND workerId = :worker',
          ExpressionAttributeValues: { ':now': now, ':worker': doc.workerId, ...(retainedKey ? { ':retained': retainedKey } : {}) },
        }),
      );
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  },

  /**
   * The owner's decision, conditional on the document still awaiting one (latest version, not
   * deleted, uploaded or pending review): of two decisions at once, one wins. A document past its
   * expiration date (`today`, YYYY-MM-DD) cannot be approved; a rejected one cannot expire any more.
   * Undefined when the document was not in a reviewable state.
   */
  async review(
    id: string,
    decision: { status: 'approved' | 'rejected'; notes: string | null; ownerId: string; at: string; today: string },
  ): Promise<DocumentItem | undefined> {
    try {
      const out = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.document(id),
          UpdateExpression: `SET #status = :status, reviewNotes = :notes, reviewedAt = :at, reviewedBy = :owner, updatedAt = :at${
            decision.status === 'rejected' ? ' REMOVE gsi3pk, gsi3sk' : ''
          }`,
          ConditionExpression: `attribute_exists(pk) AND #status IN (:pending, :uploaded) AND isLatestVersion = :true AND attribute_not_exists(deletedAt)${
            decision.status === 'approved' ? ' AND (attribute_type(expirationDate, :nullType) OR expirationDate >= :today)' : ''
          }`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': decision.status,
            ':notes': decision.notes,
            ':at': decision.at,
            ':owner': decision.ownerId,
            ':pending': 'pending_review',
            ':uploaded': 'uploaded',
            ':true': true,
            ...(decision.status === 'approved' ? { ':nullType': 'NULL', ':today': decision.today } : {}),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as DocumentItem;
    } catch (error) {
      if (lostRace(error)) return undefined;
      throw error;
    }
  },

  /** Documents that may still expire with a date up to `lastDate` (YYYY-MM-DD) inclusive: one Query of the sparse index. */
  async expiringBy(lastDate: string): Promise<DocumentItem[]> {
    const items: DocumentItem[] = [];
    let start: QueryCommandInput['ExclusiveStartKey'];
    do {
      const out = await dynamo.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk < :after',
          // '$' sorts after '#': every id of the last date is included.
          ExpressionAttributeValues: { ':pk': keys.documentExpiry().gsi3pk, ':after': `${lastDate}$` },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...((out.Items ?? []) as DocumentItem[]));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  },

  /**
   * Marks the document expired (once: conditional on a state that can expire) and, in the same
   * transaction, pauses the worker's offers for its category when asked. False if it already was.
   */
  async expire(doc: DocumentItem, at: string, pauseCategory?: string): Promise<boolean> {
    const actions: WriteAction[] = [
      {
        Update: {
          TableName: tableName,
          Key: keys.document(doc.id),
          UpdateExpression: 'SET #status = :expired, expiredAt = :at, updatedAt = :at REMOVE gsi3pk, gsi3sk',
          ConditionExpression: 'attribute_exists(pk) AND #status IN (:uploaded, :pending, :approved) AND attribute_not_exists(deletedAt)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':expired': 'expired',
            ':at': at,
            ':uploaded': EXPIRABLE[0],
            ':pending': EXPIRABLE[1],
            ':approved': EXPIRABLE[2],
          },
        },
      },
    ];
    if (pauseCategory) {
      actions.push({
        Update: {
          TableName: tableName,
          Key: keys.worker(doc.workerId),
          UpdateExpression: 'ADD offersPausedFor :category SET updatedAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':category': new Set([pauseCategory]), ':at': at },
        },
      });
    }
    try {
      await writeTogether(actions);
      return true;
    } catch (error) {
      if (error instanceof WriteCancelled && error.refusedAt(0)) return false;
      throw error;
    }
  },

  /** Records that the `days`-before reminder went out (once: false if it already had). The 7-day one covers the 30-day one. */
  async markReminded(doc: DocumentItem, days: 7 | 30, at: string): Promise<boolean> {
    const field = days === 7 ? 'reminded7At' : 'reminded30At';
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.document(doc.id),
          UpdateExpression: days === 7 ? 'SET reminded7At = :at, reminded30At = if_not_exists(reminded30At, :at)' : `SET ${field} = :at`,
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(${field}) AND attribute_not_exists(deletedAt)`,
          ExpressionAttributeValues: { ':at': at },
        }),
      );
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  },

  /** Lifts the pause of one category (a valid document of it was approved); the profile after, if it had that pause. */
  async resumeOffers(workerId: string, categoryId: string, at: string): Promise<WorkerItem | undefined> {
    try {
      const out = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.worker(workerId),
          UpdateExpression: 'DELETE offersPausedFor :category SET updatedAt = :at',
          ConditionExpression: 'contains(offersPausedFor, :one)',
          ExpressionAttributeValues: { ':category': new Set([categoryId]), ':one': categoryId, ':at': at },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as WorkerItem;
    } catch (error) {
      if (lostRace(error)) return undefined;
      throw error;
    }
  },
};

export const documentUploadsRepo = {
  async create(item: DocumentUploadItem): Promise<void> {
    await dynamo.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  },

  /** The worker's own upload, while it is still open (DynamoDB deletes expired items late). */
  async findOpen(workerId: string, uploadId: string, now = Date.now()): Promise<DocumentUploadItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.documentUpload(uploadId), ConsistentRead: true }));
    const item = out.Item as DocumentUploadItem | undefined;
    return item && item.workerId === workerId && Date.parse(item.createdAt) + UPLOAD_CONFIRM_SECONDS * 1000 > now ? item : undefined;
  },

  /** Uploads handed out before `before` (ISO) and still not confirmed: one Query of the sparse index. */
  async openBefore(before: string): Promise<DocumentUploadItem[]> {
    const items: DocumentUploadItem[] = [];
    let start: QueryCommandInput['ExclusiveStartKey'];
    do {
      const out = await dynamo.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk < :before',
          ExpressionAttributeValues: { ':pk': keys.openDocumentUploads().gsi3pk, ':before': before },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...((out.Items ?? []) as DocumentUploadItem[]));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  },

  async remove(uploadId: string): Promise<void> {
    await dynamo.send(new DeleteCommand({ TableName: tableName, Key: keys.documentUpload(uploadId) }));
  },
};

export const documentAccessLog = {
  async record(row: Omit<DocumentAccessItem, 'pk' | 'sk' | 'entity'>): Promise<void> {
    const item: DocumentAccessItem = { ...keys.documentAccess(row.documentId, row.at, newId()), entity: 'document-access', ...row };
    await dynamo.send(new PutCommand({ TableName: tableName, Item: item }));
  },

  async ofDocument(documentId: string): Promise<DocumentAccessItem[]> {
    return queryAll<DocumentAccessItem>({ pk: keys.documentAccess(documentId).pk, skPrefix: 'ACCESS#' });
  },
};
