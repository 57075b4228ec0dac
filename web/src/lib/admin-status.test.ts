import { describe, expect, it } from 'vitest';
import { ownerLink } from './admin-status';

describe('ownerLink', () => {
  it('points an admin at the dashboard', () => {
    expect(ownerLink({ isAdmin: true, isSetup: true })).toEqual({ to: '/admin', label: 'Owner Dashboard' });
  });
  it('points at the login once an owner is set up', () => {
    expect(ownerLink({ isAdmin: false, isSetup: true })).toEqual({ to: '/admin/login', label: 'Owner Login' });
  });
  it('points at the setup screen when no owner exists (and when the status call failed)', () => {
    expect(ownerLink({ isAdmin: false, isSetup: false })).toEqual({ to: '/admin/setup', label: 'Owner Login' });
  });
});
