import * as z from 'zod/mini';
import { strictBody } from '../validation';
import { deliverableEmail, email, text } from './fields';
import { confirmedBy, password } from './password';

export type { CurrentUser } from './views/people';

/** Owner setup. The confirm message sits on the confirm field. */
export const adminSetupSchema = strictBody({
  /**
   * The one-time code the operator got with the deployment (the stack's SetupCodeCommand output, or
   * the `npm start` console): without it, whoever reached this page first would own the marketplace.
   */
  setupCode: text(
    'Enter the setup code',
    z.minLength(1, 'Enter the setup code'),
    z.maxLength(200, 'That is longer than any setup code: paste the code alone'),
  ),
  username: text(
    'Username must be at least 3 characters',
    z.minLength(3, 'Username must be at least 3 characters'),
    z.maxLength(50, 'Username must be at most 50 characters'),
    z.regex(/^[A-Za-z0-9._@-]+$/, 'Use letters, digits and . _ @ - only'),
  ),
  /** Where the owner's mail goes, and the only way back in through a reset link: stored lower-case. */
  email: deliverableEmail('Enter a valid email address'),
  password: password('Password must be at least 8 characters long.'),
  confirm: z.string({ error: 'Please confirm the password' }),
}).check(
  confirmedBy('password', 'confirm', 'Passwords do not match. Please try again.'),
);
export type AdminSetupInput = z.infer<typeof adminSetupSchema>;

export const adminLoginSchema = strictBody({
  username: text('Username is required', z.minLength(1, 'Username is required')),
  password: z.string({ error: 'Password is required' }).check(z.minLength(1, 'Password is required')),
});
export type AdminLoginInput = z.infer<typeof adminLoginSchema>;

export const changePasswordSchema = strictBody({
  currentPassword: z.string({ error: 'Current password is required' }).check(z.minLength(1, 'Current password is required')),
  newPassword: password('New password must be at least 8 characters'),
  confirmPassword: z.string({ error: 'Please confirm your new password' }).check(
    z.minLength(1, 'Please confirm your new password'),
  ),
}).check(
  confirmedBy('newPassword', 'confirmPassword', "New passwords don't match"),
);
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/**
 * The owner adds or changes their email. It decides where a password-reset link goes, so it takes
 * the current password, as a password change does.
 */
export const ownerEmailSchema = strictBody({
  email: deliverableEmail('Enter a valid email address'),
  currentPassword: z.string({ error: 'Current password is required' }).check(z.minLength(1, 'Current password is required')),
});
export type OwnerEmailInput = z.infer<typeof ownerEmailSchema>;

/** "Forgot password?": the address of a pro's account or of the owner. */
export const passwordResetRequestSchema = strictBody({
  email: email('Enter a valid email address'),
});
export type PasswordResetRequestInput = z.infer<typeof passwordResetRequestSchema>;

const INCOMPLETE_LINK = 'This link is incomplete. Open it again from the mail, or send a new link.';

/** A new password from a reset link: the link's secret and the password, by the rules of every new password. */
export const passwordResetCompleteSchema = strictBody({
  token: text(INCOMPLETE_LINK, z.minLength(1, INCOMPLETE_LINK), z.maxLength(100, INCOMPLETE_LINK)),
  password: password('Password must be at least 8 characters'),
  confirmPassword: z.string({ error: "Passwords don't match" }),
}).check(
  confirmedBy('password', 'confirmPassword', "Passwords don't match"),
);
export type PasswordResetCompleteInput = z.infer<typeof passwordResetCompleteSchema>;

export const workerLoginSchema = strictBody({
  email: email('Valid email required'),
  password: z.string({ error: 'Password is required' }).check(z.minLength(1, 'Password is required')),
});
export type WorkerLoginInput = z.infer<typeof workerLoginSchema>;

/** A pro's signup page without a link: the address the application gave, to mail a link to. */
export const workerAccountLinkRequestSchema = strictBody({
  email: email('Enter a valid email address'),
});
export type WorkerAccountLinkRequestInput = z.infer<typeof workerAccountLinkRequestSchema>;

const ACCOUNT_LINK_INCOMPLETE = 'This link is incomplete. Open it again from the mail, or send a new link.';
const accountLinkToken = () => text(ACCOUNT_LINK_INCOMPLETE, z.minLength(1, ACCOUNT_LINK_INCOMPLETE), z.maxLength(100, ACCOUNT_LINK_INCOMPLETE));

/** The signup page opened from a mailed link: which address it is for, and whether an account exists. */
export const workerAccountLinkCheckSchema = strictBody({
  token: accountLinkToken(),
});
export type WorkerAccountLinkCheckInput = z.infer<typeof workerAccountLinkCheckSchema>;

/**
 * The pro account's password, with a mailed link's secret: no email is typed, the link names the
 * application's address, so only whoever reads that mailbox can make the account.
 */
export const workerCreateAccountSchema = strictBody({
  token: accountLinkToken(),
  password: password('Password must be at least 8 characters'),
  confirmPassword: z.string({ error: "Passwords don't match" }),
}).check(
  confirmedBy('password', 'confirmPassword', "Passwords don't match"),
);
export type WorkerCreateAccountInput = z.infer<typeof workerCreateAccountSchema>;

export const roles = ['customer', 'worker', 'admin'] as const;
export type Role = (typeof roles)[number];

/** Local stage only: sign in as anyone to try a screen. */
export const devLoginSchema = strictBody({
  userId: text('userId is required', z.minLength(1, 'userId is required'), z.maxLength(64, 'userId is too long')),
  role: z.enum(roles, { error: 'role must be customer, worker or admin' }),
  username: text('username is required', z.minLength(1, 'username is required'), z.maxLength(64, 'username is too long')),
});

