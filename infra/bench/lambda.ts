import { statSync } from 'node:fs';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { lambdaBundling } from '../bundling';

/**
 * The esbuild options the CDK stack uses for every function (NodejsFunction bundling), kept
 * identical here so the sizes and import times measured are those of what actually ships.
 */
export function lambdaBuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: lambdaBundling.target,
    format: 'esm',
    minify: lambdaBundling.minify,
    sourcemap: 'linked',
    sourcesContent: lambdaBundling.sourcesContent,
    mainFields: [...lambdaBundling.mainFields],
    banner: { js: lambdaBundling.banner },
    metafile: true,
  };
}

export interface Bundle {
  file: string;
  bytes: number;
  metafile: Metafile;
}

export async function bundle(root: string, entry: string, outfile: string): Promise<Bundle> {
  const result = await build({ ...lambdaBuildOptions(entry, outfile), absWorkingDir: root });
  // The file on disk (banner included) is what Lambda loads, so that is the size reported.
  return { file: outfile, bytes: statSync(outfile).size, metafile: result.metafile! };
}

/** The package an input file belongs to, from its last node_modules segment; `undefined` for own code. */
export function packageOf(input: string): string | undefined {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const [scopeOrName, name] = input.slice(at + 'node_modules/'.length).split('/');
  return scopeOrName?.startsWith('@') ? `${scopeOrName}/${name}` : scopeOrName;
}

/** The AWS SDK entry packages a function bundles: its service clients and the DynamoDB document client. */
export function sdkClientPackages(metafile: Metafile): string[] {
  const found = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const pkg = packageOf(input);
    // Stripe's SDK and web-push (the client of the browsers' push services) are outside clients like
    // the AWS ones: functions that call Stripe or send pushes are judged against them too.
    if (pkg && (pkg.startsWith('@aws-sdk/client-') || pkg === '@aws-sdk/lib-dynamodb' || pkg === 'stripe' || pkg === 'web-push')) found.add(pkg);
  }
  return [...found].sort();
}

/** Bytes each package (or "own code") contributes to the minified output, largest first. */
export function contributions(metafile: Metafile): { name: string; bytes: number }[] {
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(input) ?? 'own code';
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}
