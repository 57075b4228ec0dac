import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler } from './get-application-document';
import { newId } from '../common/ids';
import { ownerTestSession } from '../testing/owner';
import { asOwner, freshEmail, pendingApplication, postWithForm, uploadFile, uploadWithForm } from '../testing/applications';
import { invoke, sampleEvent, withBody, withCookies, withPath } from '../testing/events';
import { handler as submitCompanyApplication } from './submit-company-application';

afterEach(() => vi.restoreAllMocks());

const fetchDocument = async (id: string, document: string) =>
  invoke(handler, await asOwner('get-application-document', { id, document }));

describe('GET /api/admin/applications/{id}/documents/{document}', () => {
  it('hands the owner a presigned GET of the ID image valid for 2 minutes', async () => {
    // Prepare
    const { id } = await pendingApplication();

    // Act
    const before = Date.now();
    const res = await fetchDocument(id, 'idFront');

    // Assess
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'url']);
    const expiresIn = Date.parse(res.body.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(110_000);
    expect(expiresIn).toBeLessThanOrEqual(121_000);
    const file = await fetch(res.body.url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('test image bytes');
  });

  it('logs the access with the application, the document and the owner, never the URL', async () => {
    // Prepare
    const { id } = await pendingApplication();
    const owner = await ownerTestSession();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});

    // Act
    const res = await invoke(handler, withCookies(withPath(sampleEvent('get-application-document'), { id, document: 'selfie' }), [owner.cookie]));

    // Assess
    const lines = log.mock.calls.map((c) => JSON.parse(String(c[0])));
    expect(lines).toContainEqual(
      expect.objectContaining({ message: 'Application document accessed', applicationId: id, document: 'selfie', ownerId: owner.ownerId }),
    );
    const text = JSON.stringify(lines);
    expect(text).not.toContain(res.body.url);
    expect(text).not.toContain('uploads/');
    expect(text).not.toContain('X-Amz-Signature');
  });

  it('serves a company application\'s uploaded documents, and 404 for one it does not have', async () => {
    // Prepare
    const businessLicenseUrl = await uploadFile('company-documents', 'application/pdf');
    const sample = sampleEvent('submit-company-application');
    const body = { ...JSON.parse(sample.body!), emailAddress: freshEmail(), businessLicenseUrl };
    const { body: created } = await invoke(submitCompanyApplication, withBody(sample, body));

    // Act
    const license = await fetchDocument(created.id, 'businessLicense');
    const insurance = await fetchDocument(created.id, 'insuranceCertificate');

    // Assess
    expect(license.status).toBe(200);
    expect((await fetch(license.body.url)).status).toBe(200);
    expect(insurance.status).toBe(404);
  });

  it('serves the ID image as it was filed, though its upload form posted other bytes after the application', async () => {
    // Prepare
    const front = await uploadWithForm('worker-documents', 'image/jpeg', 'the real ID');
    const { id } = await pendingApplication({ photoIdFrontUrl: front.key });
    await postWithForm(front.form, 'another face', 'image/jpeg');

    // Act
    const res = await fetchDocument(id, 'idFront');

    // Assess
    expect(res.status).toBe(200);
    expect(await (await fetch(res.body.url)).text()).toBe('the real ID');
  });

  it('serves a company document as it was filed, though its upload form posted other bytes after the application', async () => {
    // Prepare
    const license = await uploadWithForm('company-documents', 'application/pdf', 'the real licence');
    const sample = sampleEvent('submit-company-application');
    const body = { ...JSON.parse(sample.body!), emailAddress: freshEmail(), businessLicenseUrl: license.key };
    const { body: created } = await invoke(submitCompanyApplication, withBody(sample, body));
    await postWithForm(license.form, 'a forged licence', 'application/pdf');

    // Act
    const res = await fetchDocument(created.id, 'businessLicense');

    // Assess
    expect(res.status).toBe(200);
    expect(await (await fetch(res.body.url)).text()).toBe('the real licence');
  });

  it.each([
    ['an unknown application', () => newId(), 'idFront'],
    ['a malformed id', () => '..%2F..%2Fx', 'idFront'],
  ])('answers 404 for %s', async (_what, id, document) => {
    const res = await fetchDocument(id(), document);

    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'NotFoundError', message: 'No such document for this application.' });
  });

  it.each(['ssnLastFour', 'businessLicense', 'photoIdFrontUrl', '__proto__', 'toString'])(
    'answers 404 for the document name %j on a worker application',
    async (document) => {
      const { id } = await pendingApplication();

      expect((await fetchDocument(id, document)).status).toBe(404);
    },
  );

  it('answers 401 without the owner session', async () => {
    const { id } = await pendingApplication();

    const res = await invoke(handler, withPath(sampleEvent('get-application-document'), { id, document: 'idFront' }));

    expect(res.status).toBe(401);
  });
});
