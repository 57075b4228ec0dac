/**
 * A contract pro works the marketplace's scheduled assignments; an independent pro takes the jobs
 * they choose while on call. Plain data, apart from the schemas, so a screen can name the types
 * without bringing the schema library along.
 */
export const workerTypes = ['contract', 'independent'] as const;
export type WorkerType = (typeof workerTypes)[number];
