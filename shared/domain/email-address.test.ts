import { describe, expect, it } from 'vitest';
import { undeliverableReason } from './email-address';

describe('undeliverableReason', () => {
  it.each([
    ['sam@gmial.com', 'Mail to gmial.com cannot arrive. Did you mean sam@gmail.com?'],
    ['sam@hotmial.com', 'Mail to hotmial.com cannot arrive. Did you mean sam@hotmail.com?'],
    ['sam@yahoo.co', 'Mail to yahoo.co cannot arrive. Did you mean sam@yahoo.com?'],
    ['sam@plumbing-co.con', 'Mail to .con cannot arrive. Did you mean sam@plumbing-co.com?'],
    ['sam@printer.local', 'Mail to a .local address cannot arrive from the Internet. Please use an address you read mail at.'],
    ['sam@nowhere.invalid', 'Mail to a .invalid address cannot arrive from the Internet. Please use an address you read mail at.'],
    ['sam@localhost', 'That address has no domain we can send to (like name@example.com). Please check it.'],
  ])('refuses %s, saying what to do', (address, reason) => {
    expect(undeliverableReason(address)).toBe(reason);
  });

  it.each(['sam@gmail.com', 'sam@plumbing-co.com', 'sam@mail.example.co.uk', 'sam@example.com', 'sam@fixly.test', 'sam@harborview.example'])(
    'knows nothing against %s',
    (address) => {
      expect(undeliverableReason(address)).toBeUndefined();
    },
  );
});
