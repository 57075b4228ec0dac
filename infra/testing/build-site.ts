import { ensureSiteBuild } from '../local/site-build';

/** `npm start`'s production build of the site, made if the sources changed since the last one; run by quiet-site-build.ts. */
await ensureSiteBuild({ log: () => {} });
