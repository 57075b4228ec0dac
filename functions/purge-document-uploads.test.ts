import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../shared/table';
import { handler as confirm } from './confirm-document-upload';
import { handler as createUpload } from './create-document-upload';
import { handler } from './purge-document-uploads';
import { dynamo, tableName } from './lib/clients';
import { documentUploadsRepo, documentsRepo, type DocumentUploadItem } from './lib/data/documents';
import { headObject } from './lib/storage';
import { invoke, sampleEvent } from './lib/testing/events';
import { asWorker, confirmedDocument, fileBytes, postFile, uploadBody, workerWithToken } from './lib/testing/documents';

const run = () => handler(sampleEvent('purge-document-uploads'));

/** An upload whose file was posted, its item moved `minutesAgo` into the past. */
async function postedUpload(token: string, workerId: string, minutesAgo: number) {
  const ticket = await invoke(createUpload, asWorker('create-document-upload', token, { body: uploadBody() }));
  await postFile(ticket.body, fileBytes.pdf(), 'application/pdf');
  const intent = (await documentUploadsRepo.findOpen(workerId, ticket.body.uploadId))!;
  const createdAt = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const moved: DocumentUploadItem = { ...intent, createdAt, ...keys.openDocumentUploads(createdAt, intent.uploadId) };
  await dynamo.send(new PutCommand({ TableName: tableName, Item: moved }));
  return moved;
}

describe('purge-document-uploads (daily)', () => {
  it('deletes the file and the item of an upload left unconfirmed for over an hour, and nothing twice', async () => {
    // Prepare
    const { worker, token } = await workerWithToken();
    const upload = await postedUpload(token, worker.id, 61);

    // Act
    await run();
    await run();

    // Assess
    expect(await headObject(upload.key)).toBeUndefined();
    expect(await documentUploadsRepo.openBefore(new Date().toISOString()).then((all) => all.some((u) => u.uploadId === upload.uploadId))).toBe(false);
    expect(await documentUploadsRepo.findOpen(worker.id, upload.uploadId)).toBeUndefined();
  });

  it('leaves an upload still within its hour alone', async () => {
    const { worker, token } = await workerWithToken();
    const upload = await postedUpload(token, worker.id, 30);

    await run();

    expect(await headObject(upload.key)).toBeDefined();
    expect(await documentUploadsRepo.findOpen(worker.id, upload.uploadId)).toBeDefined();
  });

  it('keeps the file of a confirmed document, whose upload item is gone', async () => {
    // Prepare
    const { token } = await workerWithToken();
    const doc = await confirmedDocument(token);

    // Act
    await run();

    // Assess
    const stored = await documentsRepo.findById(doc.id);
    expect(await headObject(stored!.key)).toBeDefined();
    expect((await documentUploadsRepo.openBefore(new Date(Date.now() + 60_000).toISOString())).some((u) => u.uploadId === doc.id)).toBe(false);
  });

  it('refuses to confirm an upload after its hour', async () => {
    const { worker, token } = await workerWithToken();
    const upload = await postedUpload(token, worker.id, 61);

    const res = await invoke(confirm, asWorker('confirm-document-upload', token, { params: { uploadId: upload.uploadId } }));

    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No such upload, or it is more than an hour old. Upload the file again.');
  });
});
