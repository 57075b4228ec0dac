import { readFileSync, rmSync, writeFileSync } from 'node:fs';

/** Another running process holds the folder (a second `npm start` on the same DATA_DIR). */
export class FolderInUseError extends Error {
  override readonly name = 'FolderInUseError';
  readonly code = 'FOLDER_IN_USE';
  constructor(readonly folder: string, readonly pid: number) {
    super(`${folder} is in use by process ${pid}`);
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims `folder` for this process with a pid file beside it, released by the returned function.
 * LevelDB's own lock is no help here: dynalite opens its database after it starts listening, and the
 * first request to a database another process holds ends the process with "Database is closed".
 * A claim whose process is gone (killed, crashed) is taken over.
 */
export function claimFolder(folder: string): () => void {
  const claimFile = `${folder}.pid`;
  for (;;) {
    try {
      writeFileSync(claimFile, String(process.pid), { flag: 'wx' });
      return () => rmSync(claimFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(claimFile, 'utf8').trim());
    if (holder && holder !== process.pid && isRunning(holder)) throw new FolderInUseError(folder, holder);
    rmSync(claimFile, { force: true });
  }
}
