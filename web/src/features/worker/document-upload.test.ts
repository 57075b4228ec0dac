import { describe, expect, it } from 'vitest';
import type { DocumentCategoryView, DocumentView } from '../../../../shared/schemas/documents';
import { acceptFor, formatsLabel, idleUpload, isUploading, prepareUpload, progressPercent, uploadReducer, type UploadState, type UploadFormValues } from './document-upload';

const category = (over: Partial<DocumentCategoryView> = {}): DocumentCategoryView => ({
  id: 'cat-licence',
  name: 'Trade licence',
  description: 'Your state trade licence',
  documentType: 'legal',
  userType: 'worker',
  isRequired: true,
  expirationRequired: false,
  maxFileSizeMB: 10,
  allowedFormats: ['pdf', 'jpg', 'jpeg', 'png'],
  displayOrder: 1,
  ...over,
});
const file = (name: string, size = 2048, type = '') => new File([new Uint8Array(size)], name, { type });
const values = (over: Partial<UploadFormValues> = {}): UploadFormValues => ({
  categoryId: 'cat-licence',
  file: file('licence.pdf'),
  displayName: '',
  description: '',
  expirationDate: '',
  ...over,
});
const nextYear = `${new Date().getUTCFullYear() + 1}-06-30`;

describe('the file input follows the category', () => {
  it('accepts the category’s extensions and their content types', () => {
    expect(acceptFor(category())).toBe('.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png');
    expect(acceptFor(category({ allowedFormats: ['PDF', 'docx'] }))).toBe(
      '.pdf,.docx,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(formatsLabel(category())).toBe('PDF, JPG or PNG');
    expect(formatsLabel(category({ allowedFormats: ['pdf'] }))).toBe('PDF');
  });
});

describe('prepareUpload', () => {
  it('asks for a file and a category first, with one message for both', () => {
    expect(prepareUpload(values({ file: null }), category())).toEqual({ ok: false, fields: { _: 'Please select a file and category', file: 'Choose a file' } });
    expect(prepareUpload(values(), undefined)).toMatchObject({ ok: false, fields: { _: 'Please select a file and category', categoryId: 'Choose a category' } });
  });

  it('builds the body the server checks, typed by the extension and without empty optional fields', () => {
    expect(prepareUpload(values({ displayName: '  Licence 2026 ', replacesDocumentId: 'doc-1' }), category())).toEqual({
      ok: true,
      body: { categoryId: 'cat-licence', filename: 'licence.pdf', contentType: 'application/pdf', fileSize: 2048, displayName: 'Licence 2026', replacesDocumentId: 'doc-1' },
    });
  });

  it('refuses a format or a size the category does not take', () => {
    expect(prepareUpload(values({ file: file('notes.txt') }), category())).toEqual({ ok: false, fields: { file: 'Trade licence takes PDF, JPG or PNG files' } });
    expect(prepareUpload(values({ file: file('scan.png', 2 * 1024 * 1024 + 1) }), category({ maxFileSizeMB: 2 }))).toEqual({
      ok: false,
      fields: { file: 'Files for Trade licence must be at most 2 MB' },
    });
    expect(prepareUpload(values({ file: file('empty.pdf', 0) }), category())).toEqual({ ok: false, fields: { file: 'The file is empty' } });
  });

  it('needs a future expiry date when the category requires one, and sends it only then', () => {
    const insurance = category({ expirationRequired: true, name: 'Liability insurance' });
    expect(prepareUpload(values(), insurance)).toEqual({ ok: false, fields: { expirationDate: 'Enter the date Liability insurance expires' } });
    expect(prepareUpload(values({ expirationDate: '2020-01-01' }), insurance)).toEqual({ ok: false, fields: { expirationDate: 'Expiration date must be after today' } });
    expect(prepareUpload(values({ expirationDate: nextYear }), insurance)).toMatchObject({ ok: true, body: { expirationDate: nextYear } });
    expect(prepareUpload(values({ expirationDate: nextYear }), category())).toMatchObject({ ok: true, body: { filename: 'licence.pdf' } });
    expect((prepareUpload(values({ expirationDate: nextYear }), category()) as { body: object }).body).not.toHaveProperty('expirationDate');
  });

  it('uses the server schema’s limits for the optional text', () => {
    expect(prepareUpload(values({ description: 'x'.repeat(501) }), category())).toEqual({
      ok: false,
      fields: { description: 'Description must be at most 500 characters' },
    });
  });
});

describe('uploadReducer', () => {
  const document = { id: 'doc-1' } as DocumentView;
  const run = (events: Parameters<typeof uploadReducer>[1][]): UploadState => events.reduce(uploadReducer, idleUpload);

  it('goes preparing, sending with its percent, confirming, done', () => {
    const sending = run([{ type: 'start', filename: 'a.pdf' }, { type: 'progress', percent: 12.4 }]);
    expect(sending).toEqual({ phase: 'sending', filename: 'a.pdf', percent: 12 });
    expect(isUploading(sending)).toBe(true);
    const confirming = uploadReducer(sending, { type: 'sent' });
    expect(progressPercent(confirming)).toBe(100);
    const done = uploadReducer(confirming, { type: 'confirmed', document });
    expect(done).toEqual({ phase: 'done', document });
    expect(isUploading(done)).toBe(false);
  });

  it('never moves the bar backwards, and ignores progress once the bytes are sent', () => {
    const state = run([{ type: 'start', filename: 'a.pdf' }, { type: 'progress', percent: 60 }, { type: 'progress', percent: 40 }]);
    expect(progressPercent(state)).toBe(60);
    const confirming = uploadReducer(state, { type: 'sent' });
    expect(uploadReducer(confirming, { type: 'progress', percent: 99 })).toBe(confirming);
  });

  it('fails from any step in flight, and a fresh start clears the failure', () => {
    const failed = run([{ type: 'start', filename: 'a.pdf' }, { type: 'progress', percent: 50 }, { type: 'failed', message: 'Upload failed' }]);
    expect(failed).toEqual({ phase: 'failed', message: 'Upload failed' });
    expect(progressPercent(failed)).toBe(0);
    expect(uploadReducer(failed, { type: 'start', filename: 'b.pdf' })).toEqual({ phase: 'preparing', filename: 'b.pdf' });
    expect(uploadReducer(idleUpload, { type: 'failed', message: 'late' })).toBe(idleUpload);
  });
});
