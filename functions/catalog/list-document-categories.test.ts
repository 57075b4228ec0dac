import { describe, expect, it } from 'vitest';
import { handler as listCategories } from './list-document-categories';
import { invoke, sampleEvent } from '../testing/events';

describe('GET /api/documents/categories', () => {
  it('lists the compliance categories in display order with their rules, to anyone', async () => {
    // Act
    const res = await invoke(listCategories, sampleEvent('list-document-categories'));

    // Assess
    expect(res.status).toBe(200);
    const categories = res.body.categories as { id: string; displayOrder: number; isRequired: boolean; allowedFormats: string[]; maxFileSizeMB: number }[];
    expect(categories.map((c) => c.id)).toEqual([
      'government-id',
      'trade-license',
      'liability-insurance',
      'w9',
      'background-check-consent',
      'workers-comp',
      'certifications',
      'other',
    ]);
    expect(categories.map((c) => c.displayOrder)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(categories[0]).toEqual({
      id: 'government-id',
      name: 'Government-issued photo ID',
      description: expect.any(String),
      documentType: 'legal',
      userType: 'worker',
      isRequired: true,
      expirationRequired: true,
      maxFileSizeMB: 10,
      allowedFormats: ['pdf', 'jpg', 'jpeg', 'png'],
      displayOrder: 1,
    });
    expect(categories.find((c) => c.id === 'w9')).toMatchObject({ documentType: 'tax', isRequired: true, expirationRequired: false });
    expect(categories.find((c) => c.id === 'certifications')).toMatchObject({ documentType: 'general', isRequired: false, allowedFormats: ['pdf', 'doc', 'docx', 'jpg', 'jpeg', 'png'] });
    expect(categories.find((c) => c.id === 'other')?.allowedFormats).toContain('txt');
  });
});
