import { describe, expect, it } from 'vitest';
import { acceptAttribute, checkFile, MAX_UPLOAD_BYTES, UploadError } from './upload';

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
