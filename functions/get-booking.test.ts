import { describe, expect, it } from 'vitest';
import { handler as createBooking } from './create-booking';
import { handler } from './get-booking';
import { newId } from './lib/ids';
import { invoke, sampleEvent, withPath } from './lib/testing/events';

const sample = sampleEvent('get-booking');

describe('GET /api/bookings/{id}', () => {
  it('returns the booking with its public status and nothing private', async () => {
    // Prepare
    const created = await invoke(createBooking, sampleEvent('create-booking'));

    // Act
    const res = await invoke(handler, withPath(sample, { id: created.body.id }));

    // Assess
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ['address', 'category', 'createdAt', 'details', 'id', 'name', 'phone', 'status'].sort(),
    );
    expect(res.body.status).toBe('new');
  });

  it('answers 404 for a well-formed id that does not exist', async () => {
    const res = await invoke(handler, withPath(sample, { id: newId() }));

    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'NotFoundError', message: 'The booking ID you entered could not be found.' });
  });

  it.each(['short', 'A'.repeat(23), 'AAAAAAAAAAAAAAAAAAAA%2', '../../etc/passwd'])(
    'answers 404 for the malformed id %j without reading the table',
    async (id) => {
      const res = await invoke(handler, withPath(sample, { id }));

      expect(res.status).toBe(404);
    },
  );

  it('takes no request body', async () => {
    const res = await invoke(handler, { ...withPath(sample, { id: newId() }), body: '{"x":1}' });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This request takes no body. Send it without one.');
  });
});
