import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { handler } from './delete-document';
import { handler as listDocuments } from './list-documents';
import { documentsRepo } from './data/documents';
import { env } from '../common/env';
import { headObject } from '../common/storage';
import { invoke } from '../testing/events';
import { asWorker, confirmedDocument, fileBytes, workerWithToken } from '../testing/documents';

const remove = (token: string, id: string) => invoke(handler, asWorker('delete-document', token, { params: { id } }));
const s3 = new S3Client({ region: env.AWS_REGION, endpoint: env.S3_ENDPOINT, forcePathStyle: true });

describe('DELETE /api/documents/{id}', () => {
  it('marks the record deleted, takes it off the list and removes the file', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const doc = await confirmedDocument(token, { categoryId: 'certifications', filename: 'osha.pdf', expirationDate: undefined });
    const key = (await documentsRepo.findById(doc.id))!.key;

    // Act
    const res = await remove(token, doc.id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const stored = await documentsRepo.findById(doc.id);
    expect(stored?.deletedAt).toEqual(expect.any(String));
    expect(stored?.retainedKey).toBeUndefined();
    expect(await headObject(key)).toBeUndefined();
    const list = await invoke(listDocuments, asWorker('list-documents', token));
    expect(list.body.documents).toEqual([]);
  });

  it('keeps a copy under retained/<years>y/ when the category has a retention period (a W-9: 4 years)', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const bytes = fileBytes.pdf(777);
    const doc = await confirmedDocument(token, { categoryId: 'w9', filename: 'w9.pdf', expirationDate: undefined }, bytes);

    // Act
    await remove(token, doc.id);

    // Assess
    const stored = await documentsRepo.findById(doc.id);
    expect(stored?.retainedKey).toBe(`retained/4y/${worker.id}/${doc.id}/file.pdf`);
    const kept = await s3.send(new GetObjectCommand({ Bucket: env.UPLOADS_BUCKET, Key: stored!.retainedKey! }));
    expect(kept.ContentType).toBe('application/pdf');
    expect(await kept.Body!.transformToByteArray()).toEqual(bytes);
    expect(await headObject(stored!.key)).toBeUndefined();
  });

  it('answers 404 for another worker\'s document and leaves it as it was', async () => {
    // Prepare
    const owner = await workerWithToken();
    const doc = await confirmedDocument(owner.token);
    const { token } = await workerWithToken();

    // Act
    const res = await remove(token, doc.id);

    // Assess
    expect(res.status).toBe(404);
    const stored = await documentsRepo.findById(doc.id);
    expect(stored?.deletedAt).toBeUndefined();
    expect(await headObject(stored!.key)).toBeDefined();
  });

  it('answers 404 the second time', async () => {
    const { token } = await workerWithToken();
    const doc = await confirmedDocument(token);
    await remove(token, doc.id);

    const res = await remove(token, doc.id);

    expect(res.status).toBe(404);
  });

  it('deletes the earlier versions it replaced, files included', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const v1 = await confirmedDocument(token);
    const v2 = await confirmedDocument(token, { replacesDocumentId: v1.id });
    const v3 = await confirmedDocument(token, { replacesDocumentId: v2.id });
    const keys = await Promise.all([v1, v2, v3].map(async (d) => (await documentsRepo.findById(d.id))!.key));

    // Act
    const res = await remove(token, v3.id);

    // Assess
    expect(res.status).toBe(200);
    for (const d of [v1, v2, v3]) expect((await documentsRepo.findById(d.id))?.deletedAt).toEqual(expect.any(String));
    for (const key of keys) expect(await headObject(key)).toBeUndefined();
  });
});
