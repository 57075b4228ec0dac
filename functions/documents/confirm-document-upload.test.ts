import { describe, expect, it } from 'vitest';
import { documentEntity } from '../../shared/entities';
import { createHash } from 'node:crypto';
import { handler } from './confirm-document-upload';
import { handler as createUpload } from './create-document-upload';
import { documentsRepo } from './data/documents';
import { headObject } from '../common/storage';
import { invoke } from '../testing/events';
import { asWorker, fileBytes, postFile, uploadBody, uploadDocument, workerWithToken } from '../testing/documents';

const confirm = (token: string, uploadId: string) => invoke(handler, asWorker('confirm-document-upload', token, { params: { uploadId } }));

/** Asks for an upload and posts these bytes to it, without confirming. */
async function posted(token: string, body: Record<string, unknown>, bytes: Uint8Array<ArrayBuffer>) {
  const ticket = await invoke(createUpload, asWorker('create-document-upload', token, { body: uploadBody({ fileSize: bytes.length, ...body }) }));
  expect(ticket.status).toBe(201);
  const res = await postFile(ticket.body, bytes, ticket.body.fields['Content-Type']);
  expect(res.ok).toBe(true);
  return ticket.body as { uploadId: string; key: string };
}

describe('POST /api/documents/uploads/{uploadId}/confirm', () => {
  it('stores the document with its size, type and SHA-256, waiting for review when the category is required', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const bytes = fileBytes.pdf(4096);
    const { uploadId } = await posted(token, { displayName: 'Liability 2027' }, bytes);

    // Act
    const res = await confirm(token, uploadId);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.document).toMatchObject({
      id: uploadId,
      workerId: worker.id,
      categoryId: 'liability-insurance',
      categoryName: 'General liability insurance certificate',
      documentType: 'legal',
      filename: 'liability-certificate.pdf',
      displayName: 'Liability 2027',
      fileSize: 4096,
      mimeType: 'application/pdf',
      status: 'pending_review',
      version: 1,
      parentDocumentId: null,
      isLatestVersion: true,
      expiringSoon: false,
    });
    const stored = await documentsRepo.findById(uploadId);
    expect(stored?.contentHash).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(res.body.document).not.toHaveProperty('key');
    expect(res.body.document).not.toHaveProperty('contentHash');
  });

  it('keeps the bytes it checked under a key of their own, which no upload form can write, and deletes the upload', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const bytes = fileBytes.pdf(2048);
    const { uploadId, key } = await posted(token, {}, bytes);

    // Act
    const res = await confirm(token, uploadId);

    // Assess
    expect(res.status).toBe(201);
    const stored = await documentsRepo.findById(uploadId);
    const hash = createHash('sha256').update(bytes).digest('hex');
    expect(stored?.key).toBe(`documents/${worker.id}/${uploadId}/${hash}.pdf`);
    expect(await headObject(stored!.key)).toMatchObject({ size: 2048, contentType: 'application/pdf' });
    expect(await headObject(key)).toBeUndefined();
  });

  it('marks an optional category\'s document uploaded, not waiting for review', async () => {
    const { token } = await workerWithToken();

    const res = await uploadDocument(token, { categoryId: 'certifications', filename: 'osha10.png', contentType: 'image/png', expirationDate: undefined }, fileBytes.png());

    expect(res.status).toBe(201);
    expect(res.body.document.status).toBe('uploaded');
  });

  it.each([
    ['a JPEG', { filename: 'id.jpg', contentType: 'image/jpeg' }, fileBytes.jpg()],
    ['a PNG', { filename: 'id.png', contentType: 'image/png' }, fileBytes.png()],
    ['a Word document', { categoryId: 'certifications', filename: 'cert.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', expirationDate: undefined }, fileBytes.docx()],
    ['an old Word document', { categoryId: 'certifications', filename: 'cert.doc', contentType: 'application/msword', expirationDate: undefined }, fileBytes.doc()],
    ['a UTF-8 text file', { categoryId: 'other', filename: 'references.txt', contentType: 'text/plain', expirationDate: undefined }, fileBytes.txt()],
  ])('accepts %s whose first bytes are its format\'s', async (_what, body, bytes) => {
    const { token } = await workerWithToken();

    const res = await uploadDocument(token, { categoryId: 'government-id', ...body }, bytes);

    expect(res.status).toBe(201);
  });

  it.each([
    ['an HTML page named .png', { categoryId: 'government-id', filename: 'id.png', contentType: 'image/png' }, fileBytes.html(), 'The file is not a real PNG image. Choose the original file and upload it again.'],
    ['a PNG named .pdf', {}, fileBytes.png(), 'The file is not a real PDF. Choose the original file and upload it again.'],
    ['a PDF named .docx', { categoryId: 'certifications', filename: 'c.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', expirationDate: undefined }, fileBytes.pdf(), 'The file is not a real Word document. Choose the original file and upload it again.'],
    ['a binary file named .txt', { categoryId: 'other', filename: 'notes.txt', contentType: 'text/plain', expirationDate: undefined }, new Uint8Array([0x68, 0x69, 0x00, 0x01]), 'The file is not a real plain text file. Choose the original file and upload it again.'],
    ['text that is not UTF-8', { categoryId: 'other', filename: 'notes.txt', contentType: 'text/plain', expirationDate: undefined }, new Uint8Array([0x68, 0x69, 0xc3, 0x28]), 'The file is not a real plain text file. Choose the original file and upload it again.'],
  ])('refuses %s and deletes it, storing nothing', async (_what, body, bytes, message) => {
    // Prepare
    const { token } = await workerWithToken();
    const { uploadId, key } = await posted(token, body, bytes);

    // Act
    const res = await confirm(token, uploadId);

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await headObject(key)).toBeUndefined();
    expect(await documentsRepo.findById(uploadId)).toBeUndefined();
  });

  it('says the upload did not arrive when the file was never posted', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const ticket = await invoke(createUpload, asWorker('create-document-upload', token, { body: uploadBody() }));

    // Act
    const res = await confirm(token, ticket.body.uploadId);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('The upload did not arrive. Upload the file again, then confirm.');
  });

  it('answers the same document when confirmed twice, with one record', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const { uploadId } = await posted(token, {}, fileBytes.pdf());
    const first = await confirm(token, uploadId);

    // Act
    const second = await confirm(token, uploadId);

    // Assess
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect((await documentsRepo.allVersionsOf(worker.id)).map((d) => d.id)).toEqual([uploadId]);
  });

  it('makes one record of two confirmations at once', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const { uploadId } = await posted(token, {}, fileBytes.pdf());

    // Act
    const [a, b] = await Promise.all([confirm(token, uploadId), confirm(token, uploadId)]);

    // Assess
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.document.id).toBe(b.body.document.id);
    expect(await documentsRepo.allVersionsOf(worker.id)).toHaveLength(1);
  });

  it('answers 404 for another worker\'s upload, and leaves it alone', async () => {
    // Prepare
    const owner = await workerWithToken();
    const { uploadId, key } = await posted(owner.token, {}, fileBytes.pdf());
    const { token } = await workerWithToken();

    // Act
    const res = await confirm(token, uploadId);

    // Assess
    expect(res.status).toBe(404);
    expect(await headObject(key)).toBeDefined();
    expect((await confirm(owner.token, uploadId)).status).toBe(201);
  });

  it('answers 404 for another worker\'s upload once it is confirmed, too', async () => {
    const owner = await workerWithToken();
    const { uploadId } = await posted(owner.token, {}, fileBytes.pdf());
    await confirm(owner.token, uploadId);
    const { token } = await workerWithToken();

    const res = await confirm(token, uploadId);

    expect(res.status).toBe(404);
  });

  it('keeps the old version when replacing: version 2 names its parent and only it is the latest', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const v1 = (await uploadDocument(token)).body.document;

    // Act
    const v2 = (await uploadDocument(token, { replacesDocumentId: v1.id })).body.document;

    // Assess
    expect(v2).toMatchObject({ version: 2, parentDocumentId: v1.id, isLatestVersion: true });
    const old = await documentsRepo.findById(v1.id);
    expect(old).toMatchObject({ isLatestVersion: false, version: 1 });
    expect(documentEntity.indexes.current.keysOf(old!)).toBeUndefined();
    expect(await documentsRepo.allVersionsOf(worker.id)).toHaveLength(2);
  });

  it('refuses a second replacement of the same version: one of two racing replacements wins', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const v1 = (await uploadDocument(token)).body.document;
    const a = await posted(token, { replacesDocumentId: v1.id }, fileBytes.pdf());
    const b = await posted(token, { replacesDocumentId: v1.id }, fileBytes.pdf());

    // Act
    const first = await confirm(token, a.uploadId);
    const second = await confirm(token, b.uploadId);

    // Assess
    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
  });
});
