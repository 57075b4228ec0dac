import type { DocumentFormat } from '../schemas/document-rules';
import type { DocumentView } from '../schemas/documents';
import { defineEntity, on, onShards } from './define';
import { shardOf } from './shards';

/**
 * Worker compliance documents. Each version is its own item (the id is its upload's id, so
 * confirming twice makes one record), with:
 * - gsi1 WORKERDOCS#<worker>: every version of the worker's documents, oldest first;
 * - gsi2 DOCUMENTS#<shard> (sparse): every worker's current documents (latest version, not deleted), the owner's
 *   list, over DOCUMENT_LIST_SHARDS partitions;
 * - gsi3 DOCEXPIRY (sparse): documents that may still expire, by expiration date (YYYY-MM-DD), so the
 *   daily job reads only those due for a reminder or expiry with one Query; an expired, rejected or
 *   deleted document leaves it.
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

/** The states a document can still expire from: not yet refused, expired or replaced. */
const MAY_EXPIRE: readonly DocumentItem['status'][] = ['uploaded', 'pending_review', 'approved'];

/**
 * The partitions the current documents are spread over (shared/entities/shards.ts). Their writes
 * follow the pros, not the bookings (uploads, reviews), but the daily expiry sweep writes the
 * reminders and expiries of a whole day's documents at once, each rewriting its copy here; 4 keep
 * that burst, and the owner's review queue, off one partition at the cost of a few more reads.
 */
export const DOCUMENT_LIST_SHARDS = 4;

const docSort = (createdAt: string, id: string) => (createdAt ? `DOC#${createdAt}#${id}` : 'DOC#');

export const documentEntity = defineEntity<DocumentItem>()({
  name: 'document',
  key: (id: string) => ({ pk: `DOCUMENT#${id}`, sk: 'DOCUMENT' }),
  indexes: {
    workerDocuments: on('gsi1', (workerId: string, createdAt = '', id = '') => ({ gsi1pk: `WORKERDOCS#${workerId}`, gsi1sk: docSort(createdAt, id) })),
    current: onShards('gsi2', DOCUMENT_LIST_SHARDS, (shard: number, createdAt = '', id = '') => ({ gsi2pk: `DOCUMENTS#${shard}`, gsi2sk: docSort(createdAt, id) })),
    expiry: on('gsi3', (expirationDate = '', id = '') => ({ gsi3pk: 'DOCEXPIRY', gsi3sk: expirationDate ? `${expirationDate}#${id}` : '' })),
  },
  membership: {
    workerDocuments: { uses: ['workerId', 'createdAt', 'id'], args: (d) => [d.workerId, d.createdAt, d.id] },
    current: {
      uses: ['deletedAt', 'isLatestVersion', 'createdAt', 'id', 'pk'],
      when: (d) => d.deletedAt === undefined && d.isLatestVersion,
      args: (d) => [shardOf(d.pk, DOCUMENT_LIST_SHARDS), d.createdAt, d.id],
    },
    // A replaced version that was approved stays: it is in force until its replacement is approved.
    expiry: {
      uses: ['deletedAt', 'status', 'isLatestVersion', 'expirationDate', 'id'],
      when: (d) => d.deletedAt === undefined && MAY_EXPIRE.includes(d.status) && (d.isLatestVersion || d.status === 'approved') && Boolean(d.expirationDate),
      args: (d) => [d.expirationDate ?? '', d.id],
    },
  },
});

/** gsi3 DOCUPLOADS (sparse): uploads not yet confirmed, oldest first, so the daily purge finds the abandoned ones' files. */
export const documentUploadEntity = defineEntity<DocumentUploadItem>()({
  name: 'document-upload',
  key: (uploadId: string) => ({ pk: `DOCUPLOAD#${uploadId}`, sk: 'UPLOAD' }),
  indexes: {
    open: on('gsi3', (createdAt = '', uploadId = '') => ({ gsi3pk: 'DOCUPLOADS', gsi3sk: createdAt ? `${createdAt}#${uploadId}` : '' })),
  },
});

/** The access log of one document: every view and download, oldest first. */
export const documentAccessEntity = defineEntity<DocumentAccessItem>()({
  name: 'document-access',
  key: (documentId: string, at = '', id = '') => ({ pk: `DOCACCESS#${documentId}`, sk: at ? `ACCESS#${at}#${id}` : 'ACCESS#' }),
});
