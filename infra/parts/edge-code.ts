import { VIEWER_ADDRESS_HEADER } from '../../shared/edge';

// The distribution's CloudFront Functions (parts/site.ts). Source text, not modules: CloudFront runs
// them itself (cloudfront-js-2.0), with no bundler and no imports, so values are spliced in here.

/**
 * Rewrites extension-less paths (client-side routes) to their prerendered page where the build has
 * one (web/src/app/prerendered-pages.ts, whose list the stack test holds this to), else to the SPA
 * shell; files pass through.
 */
export const spaRewriteCode = `function handler(event) {
  var request = event.request;
  var pages = { '/': '/pages/home.html', '/services': '/pages/services.html', '/book': '/pages/book.html', '/track': '/pages/track.html' };
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) {
    request.uri = pages[request.uri] || '/index.html';
  }
  return request;
}`;

/**
 * A WebSocket API answers only on its stage's own path (`/<stage>`; anything after it is a 403), so
 * the site's `/ws` becomes `/` and the origin path supplies the stage. The visitor's address goes
 * along as for /api (below).
 */
export const webSocketPathCode = `function handler(event) {
  var request = event.request;
  request.uri = '/';
  if (request.headers.host) request.headers['x-forwarded-host'] = { value: request.headers.host.value };
  else delete request.headers['x-forwarded-host'];
  if (event.viewer && event.viewer.ip) request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  else delete request.headers['${VIEWER_ADDRESS_HEADER}'];
  return request;
}`;

/**
 * API Gateway sees its own host name, not the one the visitor typed: the functions compare a
 * browser's Origin with this copy of it (functions/common/same-origin.ts). Set here, at the edge, so
 * whatever a client sent under that name is replaced. Likewise the visitor's address: API Gateway's
 * sourceIp is CloudFront's, so the per-address limits count this one (functions/common/client-address.ts).
 */
export const forwardedHostCode = `function handler(event) {
  var request = event.request;
  if (request.headers.host) request.headers['x-forwarded-host'] = { value: request.headers.host.value };
  else delete request.headers['x-forwarded-host'];
  if (event.viewer && event.viewer.ip) request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  else delete request.headers['${VIEWER_ADDRESS_HEADER}'];
  return request;
}`;
