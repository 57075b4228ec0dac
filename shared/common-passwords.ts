import { commonPasswordList } from './data/common-passwords';

/**
 * The most used passwords are refused wherever a password is chosen (owner setup, change password,
 * worker account): they are the first an attacker tries. The list (shared/data/common-passwords.ts)
 * holds those of 8+ characters among the 10,000 most used; the comparison ignores case and Unicode
 * compatibility forms, as the hashing does (passwords.ts normalises NFKC).
 */
export const COMMON_PASSWORD_MESSAGE =
  'This password is one of the most commonly used, so it is easy to guess. Choose something less common: several unrelated words work well.';

let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(commonPasswordList.split('\n'));
  return common.has(password.normalize('NFKC').toLowerCase());
}
