import { describe, expect, it } from 'vitest';
import { emptyCompanyForm, firstInvalidField, foldItemErrors, validateCompanyApplication } from './company-form';

const filled = {
  ...emptyCompanyForm,
  companyName: 'Harborview Property Group',
  businessType: 'Property Management',
  contactPersonName: 'Morgan Ellis',
  phoneNumber: '(510) 555-0188',
  emailAddress: 'Morgan@Harborview.example',
  companyAddress: '120 Harbor Street, Oakland',
  workerTypesNeeded: ['Plumbing'],
  typicalWorkerCount: '5-10',
  averageProjectDuration: '1 day',
  agreementAccepted: true,
};

describe('validateCompanyApplication', () => {
  it('gives the schema messages for an empty form, first field first', () => {
    const result = validateCompanyApplication(emptyCompanyForm, {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject({
      companyName: 'Company name is required',
      businessType: 'Please select a business type',
      workerTypesNeeded: 'Select at least one worker type',
      agreementAccepted: 'You must accept the agreement',
    });
    expect(firstInvalidField(result.errors)).toBe('companyName');
  });

  it('leaves empty optional fields out and sends upload keys as the document fields', () => {
    const key = 'uploads/company-documents/AAAAAAAAAAAAAAAAAAAAAA.pdf';
    const result = validateCompanyApplication(filled, { businessLicenseUrl: key });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.input).not.toHaveProperty('einTaxId');
    expect(result.input).not.toHaveProperty('billingContactEmail');
    expect(result.input).not.toHaveProperty('insuranceCertificateUrl');
    expect(result.input.businessLicenseUrl).toBe(key);
    expect(result.input.emailAddress).toBe('morgan@harborview.example');
  });

  it('refuses a billing email that is not one', () => {
    const result = validateCompanyApplication({ ...filled, billingContactEmail: 'nope' }, {});
    expect(result.ok ? {} : result.errors).toEqual({ billingContactEmail: 'Billing email must be a valid email or empty' });
  });

  it('shows list item messages on the list', () => {
    expect(foldItemErrors({ 'workerTypesNeeded.0': 'Select at least one worker type' })).toEqual({
      workerTypesNeeded: 'Select at least one worker type',
    });
  });
});
