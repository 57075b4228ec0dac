import { describe, expect, it } from 'vitest';
import { api } from './api';
import { queryKeys } from './query-keys';

/**
 * The typecheck is this file's test: each line under @ts-expect-error must fail to compile, so a
 * call that the route manifest does not allow cannot reach a screen. Never called at run time.
 */
function callsTheManifestRefuses() {
  // @ts-expect-error: no such route.
  void api('GET /api/jobz/{id}', { params: { id: 'j1' } });
  // @ts-expect-error: the route exists, but not with this method.
  void api('DELETE /api/jobs/{id}', { params: { id: 'j1' } });
  // @ts-expect-error: the path's {id} has no value.
  void api('GET /api/jobs/{id}');
  // @ts-expect-error: a parameter the path does not have.
  void api('GET /api/jobs/{id}', { params: { jobId: 'j1' } });
  // @ts-expect-error: the body is the route's schema input, which needs `arrived`.
  void api('POST /api/requests/{id}/arrival', { params: { id: 'r1' }, body: {} });
  // @ts-expect-error: a route without a body schema takes no body.
  void api('POST /api/push/test', { body: { anything: true } });
  // @ts-expect-error: a route with a body schema needs its body.
  void api('POST /api/requests/{id}/arrival', { params: { id: 'r1' } });
  // @ts-expect-error: keys come from query-keys.ts by name; there is no key for a route nobody reads.
  void queryKeys.nothing;
}

function callsTheManifestAllows() {
  void api('GET /api/config');
  void api('POST /api/requests/{id}/arrival', { params: { id: 'r1' }, body: { arrived: true } });
  void api('GET /api/documents/expiring/{days}', { params: { days: 30 } });
}

describe('the typed client', () => {
  it('is checked against the route manifest by the typecheck', () => {
    expect([callsTheManifestRefuses, callsTheManifestAllows].every((check) => typeof check === 'function')).toBe(true);
  });
});
