import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorFrom } from '../../lib/api';
import { UploadError } from '../../lib/upload';
import { expiryPhrase, shownMessage } from './document-display';

describe('expiry dates', () => {
  it('says how far off an expiry is', () => {
    expect(expiryPhrase('2026-11-22', '2026-11-22')).toBe('Expires today');
    expect(expiryPhrase('2026-11-23', '2026-11-22')).toBe('Expires tomorrow');
    expect(expiryPhrase('2026-12-12', '2026-11-22')).toBe('Expires in 20 days');
    expect(expiryPhrase('2026-11-21', '2026-11-22')).toBe('Expired yesterday');
    expect(expiryPhrase('2026-11-19', '2026-11-22')).toBe('Expired 3 days ago');
  });
});

describe('shownMessage', () => {
  it('shows the server’s message when it sent one', () => {
    const error = apiErrorFrom(400, 'Bad Request', JSON.stringify({ error: 'ValidationError', message: 'The file is not a real PDF' }));
    expect(shownMessage(error, 'Upload failed')).toBe('The file is not a real PDF');
  });

  it('falls back to the screen’s message for bare statuses and network failures', () => {
    expect(shownMessage(apiErrorFrom(502, 'Bad Gateway', ''), 'Delete failed')).toBe('Delete failed');
    expect(shownMessage(new ApiError(500, '500: {"error":"InternalError"}', { error: 'InternalError' }), 'Delete failed')).toBe('Delete failed');
    expect(shownMessage(new TypeError('Failed to fetch'), 'Download failed')).toBe('Download failed');
  });

  it('keeps an upload’s own message', () => {
    expect(shownMessage(new UploadError('Upload failed'), 'x')).toBe('Upload failed');
  });
});
