import { afterEach, describe, expect, it, vi } from 'vitest';
import { acceptAttribute, checkFile, MAX_UPLOAD_BYTES, sendToStorage, UploadError } from './upload';

const file = (name: string, type: string, size = 10) => new File([new Uint8Array(size)], name, { type });

describe('checkFile', () => {
  it('accepts the types each upload kind takes and names its content type', () => {
    expect(checkFile(file('licence.PDF', 'application/pdf'), 'company-documents')).toBe('application/pdf');
    expect(checkFile(file('id.jpeg', 'image/jpeg'), 'worker-documents')).toBe('image/jpeg');
    expect(checkFile(file('scan.png', ''), 'company-documents')).toBe('image/png');
  });

  it('refuses other types, empty files and files over 10 MB before asking the server', () => {
    expect(() => checkFile(file('notes.txt', 'text/plain'), 'company-documents')).toThrow('Only PDF, JPG or PNG files are accepted');
    expect(() => checkFile(file('id.pdf', 'application/pdf'), 'worker-documents')).toThrow('Only JPG or PNG files are accepted');
    expect(() => checkFile(file('fake.pdf', 'image/png'), 'company-documents')).toThrow(UploadError);
    expect(() => checkFile(file('empty.pdf', 'application/pdf', 0), 'company-documents')).toThrow('The file is empty');
    expect(() => checkFile(file('big.pdf', 'application/pdf', MAX_UPLOAD_BYTES + 1), 'company-documents')).toThrow('Files must be at most 10 MB');
  });

  it('builds the accept attribute from the same list', () => {
    expect(acceptAttribute('company-documents')).toBe('.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png');
  });
});

/** Stands in for the browser's XMLHttpRequest: the test plays the network's part. */
class FakeXhr {
  static last: FakeXhr | undefined;
  readonly upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  method = '';
  url = '';
  body: FormData | undefined;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  answer(status: number) {
    this.status = status;
    this.onload?.();
  }
}

describe('sendToStorage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeXhr.last = undefined;
  });

  it('posts the policy fields before the file and reports the bytes sent as whole percents below 100', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const percents: number[] = [];
    const sent = sendToStorage({ url: 'http://storage/bucket', fields: { key: 'documents/w1/a.pdf', Policy: 'p' } }, file('a.pdf', 'application/pdf', 300), (p) => percents.push(p));
    const xhr = FakeXhr.last!;
    expect([xhr.method, xhr.url]).toEqual(['POST', 'http://storage/bucket']);
    expect([...xhr.body!.keys()]).toEqual(['key', 'Policy', 'file']);
    xhr.progress(100, 300);
    xhr.progress(200, 300);
    xhr.progress(300, 300);
    xhr.answer(204);
    await sent;
    expect(percents).toEqual([33, 67, 99]);
  });

  it('rejects with the given failure when storage refuses, and with an AbortError when cancelled', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const refused = sendToStorage({ url: 'u', fields: {} }, file('a.pdf', 'application/pdf'), () => {}, undefined, 'Upload failed');
    FakeXhr.last!.answer(403);
    await expect(refused).rejects.toThrow(new UploadError('Upload failed'));

    const controller = new AbortController();
    const cancelled = sendToStorage({ url: 'u', fields: {} }, file('a.pdf', 'application/pdf'), () => {}, controller.signal);
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    await expect(sendToStorage({ url: 'u', fields: {} }, file('a.pdf', 'application/pdf'), () => {}, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
