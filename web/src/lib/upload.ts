import { uploadContentTypes, type uploadTypes } from '../../../shared/schemas/applications';
import { ApiError, api, errorMessage } from './api';

/**
 * One file straight to storage: ask POST /api/upload
 * for a presigned POST, then send the file there as multipart form data with XMLHttpRequest, so
 * the progress bar shows real bytes sent. The key it answers with goes into the application.
 */
export type UploadType = (typeof uploadTypes)[number];

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** A failure with a message fit to show under the file field. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
}

/** A presigned POST: where to send the file and the policy fields that go with it. */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
  key: string;
  expiresAt: string;
  maxBytes: number;
}

const contentTypeByExtension: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/** The extensions one upload type takes, for the input's accept attribute and the messages. */
export function acceptedExtensions(type: UploadType): string[] {
  const allowed: readonly string[] = uploadContentTypes[type];
  return Object.entries(contentTypeByExtension)
    .filter(([, contentType]) => allowed.includes(contentType))
    .map(([extension]) => extension);
}

/** The value of an <input type="file" accept>. */
export function acceptAttribute(type: UploadType): string {
  const extensions = acceptedExtensions(type);
  const types = [...new Set(extensions.map((extension) => contentTypeByExtension[extension]))];
  return [...extensions.map((extension) => `.${extension}`), ...types].join(',');
}

function typesMessage(type: UploadType): string {
  const names = acceptedExtensions(type)
    .filter((extension) => extension !== 'jpeg')
    .map((extension) => extension.toUpperCase());
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
  return `Only ${list} files are accepted`;
}

/** Checks a file before anything is asked of the server; returns its content type. */
export function checkFile(file: File, type: UploadType): string {
  const extension = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  const contentType = contentTypeByExtension[extension];
  const allowed: readonly string[] = uploadContentTypes[type];
  if (!contentType || !allowed.includes(contentType) || (file.type && file.type !== contentType)) {
    throw new UploadError(typesMessage(type));
  }
  if (file.size === 0) throw new UploadError('The file is empty');
  if (file.size > MAX_UPLOAD_BYTES) throw new UploadError('Files must be at most 10 MB');
  return contentType;
}

/**
 * Sends one file to a presigned POST with XMLHttpRequest: fetch() cannot report upload progress,
 * and the progress bar must show real bytes sent. onProgress gets whole percents and stops at 99
 * (the last bytes sent is not the storage's answer); the caller says 100 once it has that answer.
 * Rejects with an UploadError carrying `failure`, or an AbortError when the signal cancels it.
 */
export function sendToStorage(
  presigned: Pick<PresignedPost, 'url' | 'fields'>,
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
  failure = 'File upload failed',
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('The upload was cancelled', 'AbortError'));
    const form = new FormData();
    for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
    form.append('file', file);

    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);

    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.min(99, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else reject(new UploadError(failure));
    };
    xhr.onerror = () => {
      done();
      reject(new UploadError(failure));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    xhr.open('POST', presigned.url);
    xhr.send(form);
  });
}

/**
 * Uploads one file; onProgress gets whole percents (0-100). Rejects with an UploadError whose
 * message can be shown as it is, or an AbortError when the signal cancels it.
 */
export async function uploadFile(
  file: File,
  type: UploadType,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<{ key: string }> {
  const contentType = checkFile(file, type);
  onProgress(0);
  let presigned: PresignedPost;
  try {
    presigned = await api('POST /api/upload', { body: { type, contentType, size: file.size } });
  } catch (error) {
    const refused = error instanceof ApiError && error.status === 400;
    throw new UploadError((refused && (Object.values(error.fields)[0] ?? errorMessage(error))) || 'File upload failed');
  }
  await sendToStorage(presigned, file, onProgress, signal);
  onProgress(100);
  return { key: presigned.key };
}
