import { describe, expect, it } from 'vitest';
import { validate, type Schema } from './validation';
import { adminSetupSchema, changePasswordSchema, workerCreateAccountSchema } from './schemas/auth';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './common-passwords';

describe('common passwords', () => {
  it.each(['password', 'PASSWORD', 'Password1', 'iloveyou', 'qwertyuiop', '1qaz2wsx', 'sunshine', '12345678', 'ｐａｓｓｗｏｒｄ'])(
    'recognises %s, whatever its case or width',
    (password) => {
      expect(isCommonPassword(password)).toBe(true);
    },
  );

  it.each(['Lantern-Harbor-42', 'correct-horse-42', 'owner-password-1', 'tangerine bicycle umbrella'])('lets %s through', (password) => {
    expect(isCommonPassword(password)).toBe(false);
  });

  it.each<[string, Schema, Record<string, string>, string]>([
    ['owner setup', adminSetupSchema, { setupCode: 'K7pQ2xW9', username: 'owner', email: 'owner@example.com', password: 'baseball', confirm: 'baseball' }, 'password'],
    ['change password', changePasswordSchema, { currentPassword: 'x', newPassword: 'Football', confirmPassword: 'Football' }, 'newPassword'],
    ['worker account', workerCreateAccountSchema, { token: 'a-mailed-link-secret', password: 'superman', confirmPassword: 'superman' }, 'password'],
  ])('refuses a common password on %s with a message a person can act on', (_, schema, body, field) => {
    const result = validate(schema, body);

    expect(result).toEqual({ success: false, fields: { [field]: COMMON_PASSWORD_MESSAGE } });
  });

  it('says the length first when a password is both short and common', () => {
    const result = validate(adminSetupSchema, { setupCode: 'K7pQ2xW9', username: 'owner', email: 'owner@example.com', password: 'abc123', confirm: 'abc123' });

    expect(result).toEqual({ success: false, fields: { password: 'Password must be at least 8 characters long.' } });
  });

  it.each([8, 64, 200])('accepts an uncommon password of %i characters', (length) => {
    const password = 'Xq7!vR2#'.repeat(25).slice(0, length);

    const result = validate(workerCreateAccountSchema, { token: 'a-mailed-link-secret', password, confirmPassword: password });

    expect(result.success).toBe(true);
  });

  it('refuses a password over 200 characters', () => {
    const password = 'Xq7!vR2#'.repeat(26);

    const result = validate(workerCreateAccountSchema, { token: 'a-mailed-link-secret', password, confirmPassword: password });

    expect(result).toEqual({ success: false, fields: { password: 'Password must be at most 200 characters' } });
  });
});
