import { manifestAreas } from './routes';

/**
 * Where each function's code is: `functions/<area>/<name>.ts`, the area being the one whose slice
 * of the manifest lists it. The CDK stack, the local runtime, the bench and the tests all find a
 * handler through this, so moving a function to another area is moving its file and its entry.
 */
export const functionAreas: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    Object.entries(manifestAreas).flatMap(([area, slice]) =>
      Object.values(slice as Record<string, readonly { name: string }[]>).flatMap((entries) => entries.map(({ name }) => [name, area])),
    ),
  ),
  // SES's bounce and complaint feedback: the stack makes it only where mail is set up, from an SNS
  // topic rather than a manifest entry (infra/parts/mail.ts).
  'record-mail-feedback': 'mail',
};

/** The repository-relative path of a function's handler file. */
export function functionFile(name: string): string {
  const area = functionAreas[name];
  if (!area) throw new Error(`No function named "${name}" in the manifest (shared/routes.ts)`);
  return `functions/${area}/${name}.ts`;
}
