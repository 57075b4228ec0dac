import path from 'node:path';
import * as z from 'zod';
import type { FolderInUseError } from './folder-claim';
import { ensureSiteBuild } from './site-build';
import { startLocalStack } from './stack';

/**
 * `npm start` serves the production build, as CloudFront serves it (built when missing or older
 * than its sources, and kept between starts); `npm run dev` (`--dev`) serves web/ through Vite's
 * dev server with hot reload instead. WEB_DIST names a build to serve as it is.
 */
const dev = process.argv.slice(2).includes('--dev');

const options = z
  .object({
    PORT: z.coerce.number().int('PORT must be a whole number').min(0).max(65535, 'PORT must be at most 65535').default(3000),
    DATA_DIR: z.string().min(1).default('.data'),
    HOST: z.string().min(1).default('127.0.0.1'),
    /** A production build of web/ to serve as it is, rather than the one `npm start` keeps (the browser journeys use one). */
    WEB_DIST: z.string().min(1).optional(),
  })
  .safeParse(process.env);

if (!options.success) {
  console.error(`Cannot start: ${options.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  process.exit(1);
}

const { PORT, DATA_DIR, HOST, WEB_DIST } = options.data;
const started = Date.now();

async function siteToServe(): Promise<true | { dist: string }> {
  if (WEB_DIST) return { dist: path.resolve(WEB_DIST) };
  if (dev) return true;
  try {
    return { dist: (await ensureSiteBuild()).dist };
  } catch (error) {
    console.error(error);
    console.error('The site did not build, so npm start has nothing to serve. `npm run dev` serves the sources through Vite, which shows such errors in the page.');
    process.exit(1);
  }
}

const web = await siteToServe();
const stack = await startLocalStack({ port: PORT, dataDir: path.resolve(DATA_DIR), host: HOST, web }).catch((error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') console.error(`Port ${PORT} is in use. Stop the other server or set PORT.`);
  else if (code === 'FOLDER_IN_USE') console.error(`${DATA_DIR} is in use by another running stack (process ${(error as FolderInUseError).pid}). Stop it, or set DATA_DIR to another folder.`);
  else console.error(error);
  process.exit(1);
});

// Before the ready line, which is what scripts wait for: the setup code is there by then.
if (stack.ownerSetup) {
  console.log(`No owner yet: set up the owner account at ${stack.ownerSetup.url} with the setup code ${stack.ownerSetup.code}`);
}
const serving = web === true ? "Vite's dev server, with hot reload" : `the production build in ${path.relative(process.cwd(), web.dist) || '.'}`;
console.log(`Marketplace ready at ${stack.url} (data in ${DATA_DIR}, web from ${serving}, ${Date.now() - started} ms)`);
console.log(`Mail the functions send: ${stack.url}/_local/inbox`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    // A stop that hangs (something still holding a connection open) must not hang the terminal or CI.
    setTimeout(() => {
      console.error(`Stopping took over 15 s (still ${stack.stopPhase()}); exiting anyway.`);
      process.exit(1);
    }, 15_000).unref();
    stack.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
