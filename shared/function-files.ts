/**
 * Where each function's code is: `functions/<area>/<name>.ts`, the area being the folder of the
 * product area that owns it. The CDK stack, the local runtime, the bench and the tests all find a
 * handler through this, so moving a function between areas is a change here and nowhere else.
 */
export const functionAreas: Readonly<Record<string, string>> = {
  'get-config': 'catalog',
  'get-service': 'catalog',
  'list-document-categories': 'catalog',
  'list-services': 'catalog',
  'reverse-geocode': 'catalog',
  'search-addresses': 'catalog',
};

/** The repository-relative path of a function's handler file. */
export function functionFile(name: string): string {
  const area = functionAreas[name];
  return area ? `functions/${area}/${name}.ts` : `functions/${name}.ts`;
}
