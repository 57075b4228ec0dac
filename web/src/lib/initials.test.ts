import { describe, expect, it } from 'vitest';
import { initialsOf } from './initials';

describe('initialsOf', () => {
  it("takes the first and last names' initials", () => {
    expect(initialsOf('sam de la Rivera')).toBe('SR');
    expect(initialsOf('Dana Maria Whitfield')).toBe('DW');
  });

  it('takes one letter from a single name, upper-cased', () => {
    expect(initialsOf('  Cher ')).toBe('C');
    expect(initialsOf('  cher ')).toBe('C');
  });

  it('shows a question mark for a blank name', () => {
    expect(initialsOf('')).toBe('?');
  });

  it('keeps a letter outside the basic plane whole', () => {
    expect(initialsOf('𝒜da Lovelace')).toBe('𝒜L');
  });
});
