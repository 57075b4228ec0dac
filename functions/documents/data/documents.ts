import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentStatus, DocumentType } from '../../../shared/schemas/document-rules';
import {
  documentAccessEntity,
  documentEntity,
  documentUploadEntity,
  workerEntity,
  type DocumentAccessItem,
  type DocumentItem,
  type DocumentUploadItem,
  type Unindexed,
  type WorkerItem,
} from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import { newId } from '../../common/ids';
import type { Page, PageQuery } from '../../../shared/schemas/page';
import { deleteOf, ifNotExists, isNew, putOf, updateOf, type Conditions } from '../../common/data/expressions';
import { readMergedPage } from '../../common/data/page';
import { queryAll, queryAllOf, queryPage, type PageStart } from '../../common/data/query';
import { writeTogether, WriteCancelled, type WriteAction } from '../../common/data/transact';
import { tryUpdate } from '../../common/data/write';
import { declareTableUse } from '../../../shared/entities';

export type { AccessType, DocumentAccessItem, DocumentItem, DocumentUploadItem } from '../../../shared/entities';

/**
 * Worker compliance documents. Each version is its own item, DOCUMENT#<id>, among its worker's
 * versions, the owner's list of current documents (latest version, not deleted) and the documents
 * that may still expire (by date, read by the daily job with one Query; an expired, rejected or
 * deleted document leaves it, a replaced version that was approved stays): which, its entity's
 * membership says.
 * The id of a document is the id of its upload, so confirming twice (or at once) makes one record.
 */
const EXPIRABLE: readonly DocumentStatus[] = ['uploaded', 'pending_review', 'approved'];

/**
 * Where uploads' files go (document-uploads/<worker>/<upload>/file.<ext>): the only prefix a
 * presigned POST is handed out for; a document's own file is under documents/.
 */
export const DOCUMENT_UPLOADS_PREFIX = 'document-uploads/';

/** How long an upload may be confirmed after it was handed out. */
export const UPLOAD_CONFIRM_SECONDS = 60 * 60;

/** The item of a new document version, indexed as current and, when it has a date, as expirable. */
export function newDocumentItem(fields: Omit<Unindexed<DocumentItem>, 'pk' | 'sk' | 'entity' | 'updatedAt'>): DocumentItem {
  return documentEntity.withIndexKeys({
    ...documentEntity.key(fields.id),
    entity: 'document',
    ...fields,
    updatedAt: fields.createdAt,
  });
}

export type StoreOutcome = 'stored' | 'exists' | 'replaced-meanwhile';

/** What the owner's documents list narrows by (each optional). */
export interface CurrentDocumentFilters {
  status?: DocumentStatus;
  documentType?: DocumentType;
  categoryId?: string;
  workerId?: string;
}

export const documentsRepo = {
  async findById(id: string): Promise<DocumentItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: documentEntity.key(id), ConsistentRead: true }));
    return out.Item as DocumentItem | undefined;
  },

  /** The document if it is this worker's and not deleted: anything else is "no such document". */
  async findOwn(workerId: string, id: string): Promise<DocumentItem | undefined> {
    const doc = await documentsRepo.findById(id);
    return doc && doc.workerId === workerId && !doc.deletedAt ? doc : undefined;
  },

  /** Every version of every document of the worker, deleted ones included, oldest first. */
  async allVersionsOf(workerId: string): Promise<DocumentItem[]> {
    return queryAll(documentEntity.indexes.workerDocuments.range(workerId));
  },

  /** Every worker's current documents (the sparse owner's index), oldest first. */
  async allCurrent(): Promise<DocumentItem[]> {
    return queryAllOf(documentEntity.indexes.current.ranges());
  },

  /**
   * One page of every worker's current documents, newest first, narrowed by the owner's filters: a
   * bounded read of the owner's index (its shards merged), however many documents there are.
   */
  async currentPage(filters: CurrentDocumentFilters, page: PageQuery): Promise<Page<DocumentItem>> {
    const narrowed = Object.values(filters).some(Boolean);
    return readMergedPage(
      documentEntity.indexes.current.ranges(),
      {
        newestFirst: true,
        ...(narrowed
          ? {
              filter: (c: Conditions<DocumentItem>) =>
                c.and(
                  filters.status ? c.eq('status', filters.status) : undefined,
                  filters.documentType ? c.eq('documentType', filters.documentType) : undefined,
                  filters.categoryId ? c.eq('categoryId', filters.categoryId) : undefined,
                  filters.workerId ? c.eq('workerId', filters.workerId) : undefined,
                ),
            }
          : {}),
      },
      page,
    );
  },

  /**
   * Stores a confirmed document, once: conditional on its id being new, and when it replaces one,
   * in the same transaction the old version stops being the latest (conditional on still being it).
   */
  async store(doc: DocumentItem, replacing?: DocumentItem): Promise<StoreOutcome> {
    const actions: WriteAction[] = [{ Put: putOf(documentEntity, doc, isNew) }];
    if (replacing) {
      actions.push({
        Update: updateOf(documentEntity, documentEntity.key(replacing.id), {
          set: { isLatestVersion: false, updatedAt: doc.createdAt },
          stored: replacing,
          if: (c) => c.and(c.eq('isLatestVersion', true), c.notExists('deletedAt'), c.eq('workerId', doc.workerId)),
        }),
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
    const deleted = await tryUpdate(
      updateOf(documentEntity, documentEntity.key(doc.id), {
        set: { deletedAt: now, updatedAt: now, retainedKey },
        if: (c) => c.and(c.exists('pk'), c.notExists('deletedAt'), c.eq('workerId', doc.workerId)),
      }),
    );
    return deleted !== undefined;
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
    const approved = decision.status === 'approved';
    // An approved document may expire (by its date, which never changes); a rejected one cannot.
    const dated = approved ? await documentsRepo.findById(id) : undefined;
    if (approved && !dated) return undefined;
    return tryUpdate(
      updateOf(documentEntity, documentEntity.key(id), {
        set: { status: decision.status, reviewNotes: decision.notes, reviewedAt: decision.at, reviewedBy: decision.ownerId, updatedAt: decision.at },
        known: { deletedAt: undefined, isLatestVersion: true, ...(dated ? { expirationDate: dated.expirationDate, id: dated.id } : {}) },
        if: (c) =>
          c.and(
            c.exists('pk'),
            c.oneOf('status', ['pending_review', 'uploaded']),
            c.eq('isLatestVersion', true),
            c.notExists('deletedAt'),
            approved && c.or(c.hasType('expirationDate', 'NULL'), c.ge('expirationDate', decision.today)),
          ),
      }),
    );
  },

  /** Documents that may still expire with a date up to `lastDate` (YYYY-MM-DD) inclusive: one Query of the sparse index. */
  /**
   * How many current documents wait for the owner's review, reading at most `readLimit` of every
   * worker's current documents (there is no index of the waiting ones alone): `more` when the read
   * stopped before the end, so the count is a lower bound.
   */
  async countAwaitingReview(readLimit = 1000): Promise<{ count: number; more: boolean }> {
    const pageSize = 250;
    let count = 0;
    let read = 0;
    // The shards one after another, the read limit shared by them all.
    for (const range of documentEntity.indexes.current.ranges()) {
      let start: PageStart | undefined;
      do {
        if (read >= readLimit) return { count, more: true };
        const page = await queryPage<DocumentItem>({ ...range, filter: (c) => c.eq('status', 'pending_review'), projection: 'pk', limit: pageSize }, start);
        read += pageSize;
        count += page.items.length;
        start = page.next;
      } while (start);
    }
    return { count, more: false };
  },

  async expiringBy(lastDate: string): Promise<DocumentItem[]> {
    // '$' sorts after '#': every id of the last date is included.
    return queryAll({ ...documentEntity.indexes.expiry.range(), sk: { lt: `${lastDate}$` } });
  },

  /**
   * Marks the document expired (once: conditional on a state that can expire) and, in the same
   * transaction, pauses the worker's offers for its category when asked. False if it already was.
   */
  async expire(doc: DocumentItem, at: string, pauseCategory?: string): Promise<boolean> {
    const actions: WriteAction[] = [
      {
        Update: updateOf(documentEntity, documentEntity.key(doc.id), {
          set: { status: 'expired', expiredAt: at, updatedAt: at },
          known: { deletedAt: undefined },
          if: (c) => c.and(c.exists('pk'), c.oneOf('status', EXPIRABLE), c.notExists('deletedAt')),
        }),
      },
    ];
    if (pauseCategory) {
      actions.push({
        Update: updateOf(workerEntity, workerEntity.key(doc.workerId), {
          add: { offersPausedFor: new Set([pauseCategory]) },
          set: { updatedAt: at },
          if: (c) => c.exists('pk'),
        }),
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
    const reminded = await tryUpdate(
      updateOf(documentEntity, documentEntity.key(doc.id), {
        set: days === 7 ? { reminded7At: at, reminded30At: ifNotExists(at) } : { reminded30At: at },
        if: (c) => c.and(c.exists('pk'), c.notExists(field), c.notExists('deletedAt')),
      }),
    );
    return reminded !== undefined;
  },

  /** Lifts the pause of one category (a valid document of it was approved); the profile after, if it had that pause. */
  async resumeOffers(workerId: string, categoryId: string, at: string): Promise<WorkerItem | undefined> {
    return tryUpdate(
      updateOf(workerEntity, workerEntity.key(workerId), {
        delete: { offersPausedFor: new Set([categoryId]) },
        set: { updatedAt: at },
        if: (c) => c.contains('offersPausedFor', categoryId),
      }),
    );
  },
};

export const documentUploadsRepo = {
  async create(item: DocumentUploadItem): Promise<void> {
    await dynamo.send(new PutCommand(putOf(documentUploadEntity, item, isNew)));
  },

  /** The worker's own upload, while it is still open (DynamoDB deletes expired items late). */
  async findOpen(workerId: string, uploadId: string, now = Date.now()): Promise<DocumentUploadItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: documentUploadEntity.key(uploadId), ConsistentRead: true }));
    const item = out.Item as DocumentUploadItem | undefined;
    return item && item.workerId === workerId && Date.parse(item.createdAt) + UPLOAD_CONFIRM_SECONDS * 1000 > now ? item : undefined;
  },

  /** Uploads handed out before `before` (ISO) and still not confirmed: one Query of the sparse index. */
  async openBefore(before: string): Promise<DocumentUploadItem[]> {
    return queryAll({ ...documentUploadEntity.indexes.open.range(), sk: { lt: before } });
  },

  async remove(uploadId: string): Promise<void> {
    await dynamo.send(new DeleteCommand(deleteOf(documentUploadEntity, documentUploadEntity.key(uploadId))));
  },
};

export const documentAccessLog = {
  async record(row: Omit<DocumentAccessItem, 'pk' | 'sk' | 'entity'>): Promise<void> {
    const item: DocumentAccessItem = { ...documentAccessEntity.key(row.documentId, row.at, newId()), entity: 'document-access', ...row };
    await dynamo.send(new PutCommand(putOf(documentAccessEntity, item)));
  },

  async ofDocument(documentId: string): Promise<DocumentAccessItem[]> {
    return queryAll(documentAccessEntity.range(documentId));
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [documentAccessEntity, documentEntity, documentUploadEntity, workerEntity], writes: [documentAccessEntity, documentEntity, documentUploadEntity, workerEntity] });
