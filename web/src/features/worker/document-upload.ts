import {
  documentFormats,
  documentUploadSchema,
  fileExtension,
  SELECT_FILE_AND_CATEGORY,
  type DocumentCategoryView,
  type DocumentFormat,
  type DocumentUploadInput,
  type DocumentView,
} from '../../../../shared/schemas/documents';
import { validate } from '../../../../shared/validation';

/**
 * The upload form's rules, before anything is asked of the server: the same schema the server
 * checks the body with, plus what the chosen category says (its formats, size and expiry rule),
 * so a wrong file is refused under its field rather than after a presigned round trip.
 */

const isFormat = (extension: string): extension is DocumentFormat => Object.hasOwn(documentFormats, extension);

/** The category's formats the browser knows how to send (an unknown one in the data is ignored). */
function formats(category: DocumentCategoryView): DocumentFormat[] {
  return category.allowedFormats.map((format) => format.toLowerCase()).filter(isFormat);
}

/** The value of the file input's accept attribute: the category's extensions and their types. */
export function acceptFor(category: DocumentCategoryView): string {
  const extensions = formats(category);
  const types = [...new Set(extensions.map((extension) => documentFormats[extension]))];
  return [...extensions.map((extension) => `.${extension}`), ...types].join(',');
}

/** "PDF, JPG or PNG" (JPEG is JPG to people). */
export function formatsLabel(category: DocumentCategoryView): string {
  const names = formats(category)
    .filter((extension) => extension !== 'jpeg' || !formats(category).includes('jpg'))
    .map((extension) => extension.toUpperCase());
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? 'no');
}

export interface UploadFormValues {
  categoryId: string;
  file: File | null;
  displayName: string;
  description: string;
  expirationDate: string;
  replacesDocumentId?: string;
}

export type PreparedUpload = { ok: true; body: DocumentUploadInput } | { ok: false; fields: Record<string, string> };

/**
 * Checks the form and builds the body of POST /api/documents/upload. Field messages are keyed as
 * the server keys them (plus "file"), "_" holding the form-wide 'Please select a file and category'.
 */
export function prepareUpload(values: UploadFormValues, category: DocumentCategoryView | undefined): PreparedUpload {
  const { file } = values;
  if (!category || !file) {
    const fields: Record<string, string> = { _: SELECT_FILE_AND_CATEGORY };
    if (!category) fields.categoryId = 'Choose a category';
    if (!file) fields.file = 'Choose a file';
    return { ok: false, fields };
  }
  const fields: Record<string, string> = {};
  const extension = fileExtension(file.name);
  if (!isFormat(extension) || !formats(category).includes(extension)) {
    fields.file = `${category.name} takes ${formatsLabel(category)} files`;
  } else if (file.size > category.maxFileSizeMB * 1024 * 1024) {
    fields.file = `Files for ${category.name} must be at most ${category.maxFileSizeMB} MB`;
  }
  const expirationDate = values.expirationDate.trim();
  if (category.expirationRequired && !expirationDate) fields.expirationDate = `Enter the date ${category.name} expires`;

  const body = {
    categoryId: category.id,
    filename: file.name,
    // The extension decides the type: browsers leave file.type empty for some formats (.docx on Linux).
    contentType: isFormat(extension) ? documentFormats[extension] : file.type,
    fileSize: file.size,
    ...(values.displayName.trim() ? { displayName: values.displayName.trim() } : {}),
    ...(values.description.trim() ? { description: values.description.trim() } : {}),
    ...(category.expirationRequired && expirationDate ? { expirationDate } : {}),
    ...(values.replacesDocumentId ? { replacesDocumentId: values.replacesDocumentId } : {}),
  };
  const checked = validate(documentUploadSchema, body);
  if (!checked.success) {
    for (const [key, message] of Object.entries(checked.fields)) fields[key === 'filename' || key === 'fileSize' || key === 'contentType' ? 'file' : key] ??= message;
  }
  if (Object.keys(fields).length > 0 || !checked.success) return { ok: false, fields };
  return { ok: true, body: checked.data };
}

/** Where one upload stands; the form shows exactly one of these. */
export type UploadState =
  | { phase: 'idle' }
  | { phase: 'preparing'; filename: string }
  | { phase: 'sending'; filename: string; percent: number }
  | { phase: 'confirming'; filename: string }
  | { phase: 'done'; document: DocumentView }
  | { phase: 'failed'; message: string };

export type UploadEvent =
  | { type: 'start'; filename: string }
  | { type: 'progress'; percent: number }
  | { type: 'sent' }
  | { type: 'confirmed'; document: DocumentView }
  | { type: 'failed'; message: string }
  | { type: 'reset' };

export const idleUpload: UploadState = { phase: 'idle' };

/**
 * The upload's steps: ask for a presigned POST, send the bytes (progress), have the server check
 * them, done. Progress only moves forward, and an event that belongs to another step (a late
 * progress event after the confirm began) changes nothing.
 */
export function uploadReducer(state: UploadState, event: UploadEvent): UploadState {
  switch (event.type) {
    case 'start':
      return { phase: 'preparing', filename: event.filename };
    case 'progress': {
      if (state.phase !== 'preparing' && state.phase !== 'sending') return state;
      const previous = state.phase === 'sending' ? state.percent : 0;
      const percent = Math.max(previous, Math.min(100, Math.max(0, Math.round(event.percent))));
      return { phase: 'sending', filename: state.filename, percent };
    }
    case 'sent':
      return state.phase === 'preparing' || state.phase === 'sending' ? { phase: 'confirming', filename: state.filename } : state;
    case 'confirmed':
      return state.phase === 'confirming' ? { phase: 'done', document: event.document } : state;
    case 'failed':
      return state.phase === 'idle' || state.phase === 'done' ? state : { phase: 'failed', message: event.message };
    case 'reset':
      return idleUpload;
  }
}

export const isUploading = (state: UploadState): boolean =>
  state.phase === 'preparing' || state.phase === 'sending' || state.phase === 'confirming';

/** The progress bar's value: every byte counts once sent; the server's check is the last step. */
export function progressPercent(state: UploadState): number {
  if (state.phase === 'sending') return state.percent;
  if (state.phase === 'confirming' || state.phase === 'done') return 100;
  return 0;
}
