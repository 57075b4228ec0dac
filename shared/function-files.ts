/**
 * Where each function's code is: `functions/<area>/<name>.ts`, the area being the folder of the
 * product area that owns it. The CDK stack, the local runtime, the bench and the tests all find a
 * handler through this, so moving a function between areas is a change here and nowhere else.
 */
export const functionAreas: Readonly<Record<string, string>> = {
  'connect-socket': 'realtime',
  'deliver-push': 'realtime',
  'disconnect-socket': 'realtime',
  'get-config': 'catalog',
  'get-service': 'catalog',
  'get-vapid-public-key': 'realtime',
  'handle-socket-message': 'realtime',
  'list-document-categories': 'catalog',
  'list-notifications': 'realtime',
  'list-services': 'catalog',
  'record-mail-feedback': 'mail',
  'renew-push-subscription': 'realtime',
  'reverse-geocode': 'catalog',
  'search-addresses': 'catalog',
  'send-mail': 'mail',
  'send-test-push': 'realtime',
  'subscribe-push': 'realtime',
  'sweep-mail-outbox': 'mail',
  'unsubscribe-push': 'realtime',
  'verify-push-subscription': 'realtime',
};

/** The repository-relative path of a function's handler file. */
export function functionFile(name: string): string {
  const area = functionAreas[name];
  return area ? `functions/${area}/${name}.ts` : `functions/${name}.ts`;
}
