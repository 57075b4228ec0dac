import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { functionFile } from '../../shared/function-files';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A function's module by its manifest name, wherever its area keeps it (the tests that walk every route). */
export async function handlerModule<M = { handler: unknown }>(name: string): Promise<M> {
  return (await import(pathToFileURL(path.join(repoRoot, functionFile(name))).href)) as M;
}
