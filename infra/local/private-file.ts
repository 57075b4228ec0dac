import { renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes a file only its owner may read or write (0600): the local runtime's key files (VAPID,
 * the local Stripe's) and `stack.json`, which repeats the local Stripe's keys. Through a fresh
 * temporary file and a rename, so a reader never sees half a file and the mode is the new file's
 * own: writing over an existing file would keep whatever mode it had (an older 0644 one).
 */
export function writePrivateFile(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  // A temporary file a crash left behind would keep its own mode: start from none.
  rmSync(tmp, { force: true });
  writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
  renameSync(tmp, file);
}
