import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/entities';
import { handler as confirm } from './confirm-document-upload';
import { handler as createUpload } from './create-document-upload';
import { handler } from './purge-document-uploads';
import { dynamo, tableName } from '../common/clients';
import { documentUploadsRepo, documentsRepo, type DocumentUploadItem } from './data/documents';
import { headObject } from '../common/storage';
import { invoke, sampleEvent } from '../testing/events';
import { asWorker, confirmedWithTicket, fileBytes, postFile, uploadBody, workerWithToken } from '../testing/documents';

const run = () => handler(sampleEvent('purge-document-uploads'));

/** Moves an upload's item `minutesAgo` into the past. */
async function backdate(workerId: string, uploadId: string, minutesAgo: number) {
  const intent = (await documentUploadsRepo.findOpen(workerId, uploadId))!;
  const createdAt = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const moved: DocumentUploadItem = { ...intent, createdAt, ...keys.openDocumentUploads(createdAt, intent.uploadId) };
  await dynamo.send(new PutCommand({ TableName: tableName, Item: moved }));
  return moved;
}

/** An upload whose file was posted, its item moved `minutesAgo` into the past. */
async function postedUpload(token: string, workerId: string, minutesAgo: number) {
  const ticket = await invoke(createUpload, asWorker('create-document-upload', token, { body: uploadBody() }));
  await postFile(ticket.body, fileBytes.pdf(), 'application/pdf');
  return backdate(workerId, ticket.body.uploadId, minutesAgo);
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

  it('deletes what the upload form posted after the confirm, and keeps the document\'s own file', async () => {
    // Prepare: confirmed, then the form, still valid, posts again; an hour passes
    const { worker, token } = await workerWithToken();
    const { document, ticket } = await confirmedWithTicket(token);
    expect((await postFile(ticket, fileBytes.html(), 'application/pdf')).ok).toBe(true);
    await backdate(worker.id, document.id, 61);

    // Act
    await run();

    // Assess
    const stored = await documentsRepo.findById(document.id);
    expect(stored!.key).not.toBe(ticket.key);
    expect(await headObject(stored!.key)).toBeDefined();
    expect(await headObject(ticket.key)).toBeUndefined();
    expect((await documentUploadsRepo.openBefore(new Date(Date.now() + 60_000).toISOString())).some((u) => u.uploadId === document.id)).toBe(false);
  });

  it('refuses to confirm an upload after its hour', async () => {
    const { worker, token } = await workerWithToken();
    const upload = await postedUpload(token, worker.id, 61);

    const res = await invoke(confirm, asWorker('confirm-document-upload', token, { params: { uploadId: upload.uploadId } }));

    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No such upload, or it is more than an hour old. Upload the file again.');
  });
});
