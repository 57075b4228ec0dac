import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorFrom, errorMessage, queryKeyUrl } from './api';

describe('apiErrorFrom', () => {
  it('uses "<status>: <body text>" and keeps the parsed body', () => {
    const body = { error: 'ValidationError', message: 'Invalid booking', fields: { name: 'Name is required', n: 3 } };
    const error = apiErrorFrom(400, 'Bad Request', JSON.stringify(body));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(`400: ${JSON.stringify(body)}`);
    expect(error.status).toBe(400);
    expect(error.body).toEqual(body);
    expect(error.fields).toEqual({ name: 'Name is required' });
    expect(errorMessage(error)).toBe('Invalid booking');
  });

  it('falls back to the status text when the body is empty, and keeps non-JSON text', () => {
    expect(apiErrorFrom(502, 'Bad Gateway', '').message).toBe('502: Bad Gateway');
    const plain = apiErrorFrom(500, 'Internal Server Error', 'boom');
    expect(plain.body).toBe('boom');
    expect(plain.fields).toEqual({});
    expect(errorMessage(plain)).toBe('500: boom');
  });
});

describe('queryKeyUrl', () => {
  it('joins the key parts with slashes', () => {
    expect(queryKeyUrl(['/api/services', 'plumbing'])).toBe('/api/services/plumbing');
    expect(queryKeyUrl(['/api/config'])).toBe('/api/config');
  });
});
