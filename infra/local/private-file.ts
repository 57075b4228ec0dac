import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/** A file only its owner may read or write; a folder only its owner may open. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

/**
 * Makes a folder of the local data (and any missing parents) only its owner may open (0700). The
 * stores keep what the cloud would guard: mailed reset and sign-in links, uploaded ID images, the
 * table's items. A folder made before keeps its old mode through mkdir, so it is set here too;
 * inside a 0700 folder even an older 0644 file is out of other users' reach.
 */
export function makePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  chmodSync(dir, PRIVATE_FOLDER_MODE);
}

/**
 * Writes a file only its owner may read or write (0600): the local runtime's key files (VAPID,
 * the local Stripe's), `stack.json`, which repeats the local Stripe's keys, and what the local
 * stores keep (the inbox's messages, the scheduler's and Stripe's state). Through a fresh
 * temporary file and a rename, so a reader never sees half a file and the mode is the new file's
 * own: writing over an existing file would keep whatever mode it had (an older 0644 one).
 */
export function writePrivateFile(file: string, text: string | Uint8Array): void {
  const tmp = `${file}.${process.pid}.tmp`;
  // A temporary file a crash left behind would keep its own mode: start from none.
  rmSync(tmp, { force: true });
  writeFileSync(tmp, text, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  renameSync(tmp, file);
}
