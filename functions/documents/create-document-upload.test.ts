import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler } from './create-document-upload';
import { documentUploadsRepo } from './data/documents';
import { invoke } from '../testing/events';
import { asWorker, confirmedDocument, fileBytes, inDays, postFile, uploadBody, workerWithToken } from '../testing/documents';

afterEach(() => vi.useRealTimers());

const ask = (token: string, body: Record<string, unknown>) => invoke(handler, asWorker('create-document-upload', token, { body }));

describe('POST /api/documents/upload', () => {
  it('hands out a presigned POST for one key under the worker\'s own prefix, the exact type and the size limit, for 5 minutes', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();

    // Act
    const before = Date.now();
    const res = await ask(token, uploadBody());

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.key).toBe(`document-uploads/${worker.id}/${res.body.uploadId}/file.pdf`);
    expect(res.body.fields.key).toBe(res.body.key);
    expect(res.body.fields['Content-Type']).toBe('application/pdf');
    expect(res.body.maxBytes).toBe(10 * 1024 * 1024);
    const policy = JSON.parse(Buffer.from(res.body.fields.Policy, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([['content-length-range', 1, 10 * 1024 * 1024], ['eq', '$Content-Type', 'application/pdf'], ['eq', '$key', res.body.key]]),
    );
    const expiresIn = Date.parse(res.body.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(290_000);
    expect(expiresIn).toBeLessThanOrEqual(301_000);
  });

  it('remembers the upload for an hour, for its confirmation', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();

    // Act
    const res = await ask(token, uploadBody({ displayName: '  2027 certificate ', description: 'Renewed in May' }));

    // Assess
    const intent = await documentUploadsRepo.findOpen(worker.id, res.body.uploadId);
    expect(intent).toMatchObject({ categoryId: 'liability-insurance', format: 'pdf', displayName: '2027 certificate', description: 'Renewed in May' });
    expect(intent!.expiresAt - Date.now() / 1000).toBeGreaterThan(3500);
  });

  describe('the bucket enforces the policy', () => {
    it('accepts the file it was issued for', async () => {
      const { token } = await workerWithToken();
      const { body } = await ask(token, uploadBody());

      const res = await postFile(body, fileBytes.pdf(), 'application/pdf');

      expect(res.status).toBeLessThan(300);
    });

    it('refuses a file larger than the category allows', async () => {
      // Prepare
      const { token } = await workerWithToken();
      const { body } = await ask(token, uploadBody());

      // Act
      const res = await postFile(body, fileBytes.pdf(10 * 1024 * 1024 + 1), 'application/pdf');

      // Assess
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('EntityTooLarge');
    });

    it('refuses another content type', async () => {
      const { token } = await workerWithToken();
      const { body } = await ask(token, uploadBody());

      const res = await postFile({ ...body, fields: { ...body.fields, 'Content-Type': 'text/html' } }, fileBytes.html(), 'text/html');

      expect(res.status).toBe(403);
    });

    it('refuses a key outside the worker\'s own prefix', async () => {
      // Prepare
      const { token } = await workerWithToken();
      const other = await workerWithToken();
      const { body } = await ask(token, uploadBody());

      // Act
      const res = await postFile({ ...body, fields: { ...body.fields, key: `documents/${other.worker.id}/x/file.pdf` } }, fileBytes.pdf(), 'application/pdf');

      // Assess
      expect(res.status).toBe(403);
    });

    it('refuses the form once it has expired', async () => {
      // Prepare: a form issued an hour ago
      const { token } = await workerWithToken();
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() - 60 * 60 * 1000);
      const { body } = await ask(token, uploadBody());
      vi.useRealTimers();

      // Act
      const res = await postFile(body, fileBytes.pdf(), 'application/pdf');

      // Assess
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('Policy expired');
    });
  });

  describe('refuses, with nothing written, what the category does not take', () => {
    it.each([
      ['an unknown category', { categoryId: 'passport-photo' }, { categoryId: 'Choose a category from the list' }],
      ['no category', { categoryId: '' }, { categoryId: 'Please select a file and category' }],
      ['no file', { filename: '' }, { filename: 'Please select a file and category' }],
      ['a format the category does not allow', { filename: 'certificate.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }, { filename: 'General liability insurance certificate accepts PDF, JPG, JPEG, PNG files.' }],
      ['an .exe', { filename: 'setup.exe', contentType: 'application/x-msdownload' }, { filename: 'General liability insurance certificate accepts PDF, JPG, JPEG, PNG files.' }],
      ['a content type that is not the extension\'s', { filename: 'certificate.pdf', contentType: 'image/png' }, { contentType: 'A .pdf file is sent as application/pdf; choose the original file.' }],
      ['a file over 10 MB', { fileSize: 10 * 1024 * 1024 + 1 }, { fileSize: 'The file is larger than 10 MB. Choose a smaller file.' }],
      ['a missing expiration date where the category needs one', { expirationDate: undefined }, { expirationDate: 'General liability insurance certificate needs its expiration date.' }],
      ['an expiration date in the past', { expirationDate: inDays(-1) }, { expirationDate: 'Expiration date must be after today' }],
      ['an expiration date of today', { expirationDate: inDays(0) }, { expirationDate: 'Expiration date must be after today' }],
      ['a date that does not exist', { expirationDate: '2031-02-30' }, { expirationDate: 'Expiration date must be a date (YYYY-MM-DD)' }],
      ['a workerId in the body', { workerId: 'someone-else' }, { _: 'Unknown field: workerId' }],
    ])('%s', async (_what, change, fields) => {
      // Prepare
      const { token } = await workerWithToken();

      // Act
      const res = await ask(token, { ...uploadBody(), ...change });

      // Assess
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual(fields);
    });

    it('takes a plain text file only where the category allows it', async () => {
      const { token } = await workerWithToken();

      const other = await ask(token, uploadBody({ categoryId: 'other', filename: 'references.txt', contentType: 'text/plain', expirationDate: undefined }));
      const w9 = await ask(token, uploadBody({ categoryId: 'w9', filename: 'w9.txt', contentType: 'text/plain', expirationDate: undefined }));

      expect(other.status).toBe(201);
      expect(w9.status).toBe(400);
    });
  });

  describe('replacing a document', () => {
    it('accepts the latest version of one of the worker\'s own documents of the same category', async () => {
      const { token } = await workerWithToken();
      const doc = await confirmedDocument(token);

      const res = await ask(token, uploadBody({ replacesDocumentId: doc.id }));

      expect(res.status).toBe(201);
    });

    it('answers 404 for another worker\'s document', async () => {
      const other = await workerWithToken();
      const theirs = await confirmedDocument(other.token);
      const { token } = await workerWithToken();

      const res = await ask(token, uploadBody({ replacesDocumentId: theirs.id }));

      expect(res.status).toBe(404);
    });

    it('refuses a document of another category', async () => {
      const { token } = await workerWithToken();
      const doc = await confirmedDocument(token);

      const res = await ask(token, uploadBody({ categoryId: 'w9', filename: 'w9.pdf', expirationDate: undefined, replacesDocumentId: doc.id }));

      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ replacesDocumentId: 'Replace the latest version of a document of the same category' });
    });
  });
});
