/**
 * What the edge (CloudFront in the cloud, the local runtime's HTTP and WebSocket fronts on a laptop)
 * adds to every request it passes to the API, and the functions read. Header names lower-case, as
 * API Gateway's HTTP API delivers them.
 */

/**
 * The secret CloudFront adds to every request it sends to the API origins: the functions refuse a
 * request without it, so calling execute-api directly (around CloudFront, its WAF and the viewer
 * address below) gets nothing but a 403.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/**
 * The visitor's own network address, written by the edge over whatever a client sent under that
 * name: CloudFront's viewer-request functions set it from `event.viewer.ip`, the local runtime from
 * the socket's remote address. Only trusted on a request that carried the origin secret.
 */
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';
