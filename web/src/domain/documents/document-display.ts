import { daysUntil } from '../../../../shared/domain/documents';
import type { DocumentStatus, DocumentType } from '../../../../shared/schemas/document-rules';
import { ApiError } from '../../lib/api';
import type { BadgeTone } from '../../components/ui/badge';

/**
 * How a compliance document reads on both the worker's and the owner's screens, kept in one
 * place so a status never has two names.
 */
export const statusLabels: Record<DocumentStatus, string> = {
  uploaded: 'Uploaded',
  pending_review: 'Pending review',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired',
};

export const statusTones: Record<DocumentStatus, BadgeTone> = {
  uploaded: 'blue',
  pending_review: 'yellow',
  approved: 'green',
  rejected: 'red',
  expired: 'orange',
};

export const documentTypeLabels: Record<DocumentType, string> = {
  legal: 'Legal',
  tax: 'Tax',
  general: 'General',
};

/** "Expires today", "Expires tomorrow", "Expires in 12 days", "Expired 3 days ago". */
export function expiryPhrase(date: string, today: string): string {
  const days = daysUntil(date, today);
  if (days === 0) return 'Expires today';
  if (days === 1) return 'Expires tomorrow';
  if (days > 1) return `Expires in ${days} days`;
  return days === -1 ? 'Expired yesterday' : `Expired ${-days} days ago`;
}

/**
 * What a failure says to a person: the server's own message when it sent one, else the screen's
 * fallback. The raw "<status>: <body>" of
 * an ApiError and a browser's "Failed to fetch" are not for people.
 */
export function shownMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    const body = error.body;
    if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' && body.message) return body.message;
    return fallback;
  }
  if (error instanceof Error && error.name === 'UploadError' && error.message) return error.message;
  return fallback;
}
