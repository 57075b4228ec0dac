import { describe, expect, it } from 'vitest';
import { NOTES_REQUIRED, clientVerificationSchema } from '../../../../shared/schemas/invoice';
import type { WorkVerificationView } from '../../../../shared/schemas/invoice';
import {
  VERIFICATION_NOTES_MAX,
  afterDecision,
  notesErrorShown,
  notesToast,
  validateVerification,
  verificationDoneToast,
} from './verification';

const request = { id: 'job_1', worker: { id: 'w_1', name: 'Sam Rivera', phone: '+1 415 555 0100', photoUrl: null, rating: null, reviewCount: 0 } };

describe('validateVerification', () => {
  it('sends an approval without notes as null notes', () => {
    // Act
    const result = validateVerification(request, 'approved', '   ');

    // Assess
    expect(result).toEqual({
      ok: true,
      input: { serviceRequestId: 'job_1', workerId: 'w_1', verificationType: 'work_verification', verificationStatus: 'approved', verificationNotes: null },
    });
  });

  it('refuses a rejection without notes with the "Notes Required" toast', () => {
    // Act
    const result = validateVerification(request, 'rejected', ' ');

    // Assess
    expect(result).toEqual({
      ok: false,
      errors: { verificationNotes: NOTES_REQUIRED },
      toast: { title: 'Notes Required', description: 'Please provide notes when rejecting verification.' },
    });
  });

  it('sends a rejection with its notes trimmed', () => {
    const result = validateVerification(request, 'rejected', '  The tap still drips. ');
    expect(result.ok && result.input.verificationNotes).toBe('The tap still drips.');
  });

  it('sends no worker id when the card does not know the worker', () => {
    const result = validateVerification({ id: 'job_1', worker: null }, 'approved', '');
    expect(result.ok && result.input.workerId).toBeNull();
  });

  it('keeps the notes limit the same as the server', () => {
    // Prepare
    const body = (notes: string) => ({ serviceRequestId: 'j', verificationType: 'work_verification', verificationStatus: 'rejected', verificationNotes: notes });

    // Assess
    expect(clientVerificationSchema.safeParse(body('x'.repeat(VERIFICATION_NOTES_MAX))).success).toBe(true);
    expect(clientVerificationSchema.safeParse(body('x'.repeat(VERIFICATION_NOTES_MAX + 1))).success).toBe(false);
  });
});

describe('notes messages', () => {
  it('shows only the instruction under the notes box', () => {
    expect(notesErrorShown(NOTES_REQUIRED)).toBe('Please provide notes when rejecting verification.');
    expect(notesErrorShown('Notes can be at most 1000 characters')).toBe('Notes can be at most 1000 characters');
    expect(notesErrorShown(undefined)).toBeUndefined();
  });

  it('has no toast for other notes errors', () => {
    expect(notesToast({ verificationNotes: 'Notes can be at most 1000 characters' })).toBeNull();
  });
});

describe('verificationDoneToast', () => {
  it('tells the customer what happens next', () => {
    expect(verificationDoneToast('approved', 'Sam Rivera').description).toBe('Thank you. Sam Rivera can now send you the invoice.');
    expect(verificationDoneToast('rejected', 'Sam Rivera').title).toBe('Changes requested');
  });

  it('speaks of every pro when the decision is for a crew', () => {
    expect(verificationDoneToast('approved', 'Sam Rivera', true).description).toBe('Thank you. Your pros can now send you their invoices.');
    expect(verificationDoneToast('rejected', 'Sam Rivera', true).description).toBe('Your pros have your notes and will get back to the job.');
  });
});

describe('afterDecision', () => {
  it('stops asking on the decided card only', () => {
    // Prepare
    const asking: WorkVerificationView = { pending: true, workHours: 2, status: null, notes: null, at: null, message: '' };
    const list = [
      { id: 'job_1', verification: asking },
      { id: 'job_2', verification: asking },
    ];

    // Act
    const next = afterDecision(list, 'job_1', { verificationStatus: 'rejected', verificationNotes: 'Leaks' });

    // Assess
    expect(next?.[0]?.verification).toEqual({ ...asking, pending: false, status: 'rejected', notes: 'Leaks' });
    expect(next?.[1]).toBe(list[1]);
  });
});
