import * as z from 'zod/mini';
import { undeliverableReason } from '../domain/email-address';

/**
 * Field builders shared by every form schema. zod/mini keeps Lambda bundles small; each builder
 * gives the same message for a missing value as for an invalid one, so a field shows one message
 * whether it was left empty or filled in wrongly.
 */
export const text = (required: string, ...checks: z.core.$ZodCheck<string>[]) =>
  z.string({ error: (issue) => (issue.input === undefined ? required : 'Must be text') }).check(z.trim(), ...checks);

export const email = (message: string) =>
  z.string({ error: message }).check(z.trim(), z.toLowerCase(), z.maxLength(254, message), z.email(message));

/**
 * An address the product will write to (a confirmation, a link, a receipt): well formed, and not
 * one mail can never reach (shared/domain/email-address.ts says why, with the likely meant address).
 * Sign-in and lookup fields keep `email`: an address that was accepted once must still sign in.
 */
export const deliverableEmail = (message: string) =>
  z.string({ error: message }).check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(254, message),
    z.email(message),
    z.superRefine((value, ctx) => {
      // A malformed address has its message already; this judges only a well-formed one.
      if (value.length > 254 || !z.regexes.email.test(value)) return;
      const reason = undeliverableReason(value);
      if (reason) ctx.issues.push({ code: 'custom', message: reason, input: value });
    }),
  );

export const accepted = (message: string) => z.literal(true, { error: message });

/**
 * A list of choices from `options`, at least one, each at most once: so never longer than the
 * options (a profile listing one trade 1,000 times would make as many dispatch entries).
 */
export const choices = <const T extends readonly [string, ...string[]]>(
  options: T,
  messages: { invalid: string; required: string; duplicate: string },
) =>
  z.array(z.enum(options, { error: messages.invalid }), { error: messages.required }).check(
    z.minLength(1, messages.required),
    z.maxLength(options.length, messages.duplicate),
    z.refine((list) => new Set(list).size === list.length, messages.duplicate),
  );

export const phone = (message: string) =>
  text(message, z.minLength(10, message), z.maxLength(25, message), z.regex(/^\+?[0-9 ().-]+$/, message));

/**
 * "37.779300, -122.419300" is a position, not an address: a form whose reverse lookup failed must
 * not send it as one (it would reach the request card, the invoice and the pro's job page).
 */
const RAW_COORDINATES = /^\s*[-+]?\d{1,3}(\.\d+)?\s*,\s*[-+]?\d{1,3}(\.\d+)?\s*$/;
export const COORDINATES_NOT_ADDRESS = 'Type the street address: a position is not an address.';
export const notCoordinates = () => z.refine<string>((value) => !RAW_COORDINATES.test(value), COORDINATES_NOT_ADDRESS);
