import * as z from 'zod/mini';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../common-passwords';

/**
 * A password being chosen: 8 to 200 characters, and not one of the most common
 * (shared/common-passwords.ts). Its own module, so only the account forms load the list.
 */
export const password = (message: string, min = 8) =>
  z.string({ error: message }).check(
    z.minLength(min, message),
    z.maxLength(200, 'Password must be at most 200 characters'),
    z.refine((value) => !isCommonPassword(value), COMMON_PASSWORD_MESSAGE),
  );

/**
 * The check that a form's confirmation repeats its password, its message on the confirmation
 * field. It runs even when other fields failed, so the form shows every problem at once.
 */
export const confirmedBy = <K extends string, C extends string>(passwordField: K, confirmField: C, message: string) =>
  z.refine<Record<K | C, unknown>>((v) => v[passwordField] === v[confirmField], {
    message,
    path: [confirmField],
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  });
