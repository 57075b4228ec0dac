import { describe, expect, it } from 'vitest';
import { MISSING_ID_DOCUMENTS } from '../../../../shared/schemas/applications';
import { dollarsToCents, initialApplicationValues, validateApplication, type ApplicationValues } from './application-form';

const key = (name: string) => `uploads/worker-documents/${name.padEnd(22, 'A')}.png`;
const keys = { photoIdFrontUrl: key('front'), photoIdBackUrl: key('back'), selfieUrl: key('selfie') };

const complete: ApplicationValues = {
  ...initialApplicationValues,
  fullName: 'Riley Carpenter',
  phoneNumber: '(415) 555-0199',
  emailAddress: 'Riley@Example.com',
  homeAddress: '1200 Market Street, San Francisco',
  yearsExperience: '7',
  servicesProvided: ['plumbing', 'handyman'],
  hourlyRate: '42.50',
  ssnLastFour: '1234',
  workingHours: 'Weekdays 8am-6pm',
  availableSameDay: true,
  workerAgreement: true,
  workQualityAgreement: true,
  timelinessAgreement: true,
  liabilityAgreement: true,
  legalDisclaimerAccepted: true,
};

describe('dollarsToCents', () => {
  it('rounds dollars to whole cents and leaves empty or non-numeric input undefined', () => {
    expect(dollarsToCents('25')).toBe(2500);
    expect(dollarsToCents('42.5')).toBe(4250);
    expect(dollarsToCents('19.999')).toBe(2000);
    expect(dollarsToCents('')).toBeUndefined();
    expect(dollarsToCents('abc')).toBeUndefined();
  });
});

describe('validateApplication', () => {
  it('turns a complete form into the request body: rate in cents, years as a number, email normalised', () => {
    const result = validateApplication(complete, keys);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.input.hourlyRate).toBe(4250);
    expect(result.input.yearsExperience).toBe(7);
    expect(result.input.emailAddress).toBe('riley@example.com');
    expect(result.input.photoIdFrontUrl).toBe(keys.photoIdFrontUrl);
  });

  it('gives a message for the rate bounds, the steps of $0.50, the SSN and the agreements', () => {
    const low = validateApplication({ ...complete, hourlyRate: '14.50' }, keys);
    expect(low.ok ? {} : low.errors).toMatchObject({ hourlyRate: 'Hourly rate must be at least $15' });
    const high = validateApplication({ ...complete, hourlyRate: '200.50' }, keys);
    expect(high.ok ? {} : high.errors).toMatchObject({ hourlyRate: 'Hourly rate seems too high' });
    const step = validateApplication({ ...complete, hourlyRate: '25.25' }, keys);
    expect(step.ok ? {} : step.errors).toMatchObject({ hourlyRate: 'Hourly rate goes in steps of $0.50' });
    const other = validateApplication({ ...complete, ssnLastFour: '12a4', workerAgreement: false, yearsExperience: '51' }, keys);
    expect(other.ok ? {} : other.errors).toMatchObject({
      ssnLastFour: 'Must be exactly 4 digits',
      workerAgreement: 'You must accept this agreement',
      yearsExperience: 'Please enter a valid number',
    });
  });

  it('says "Missing Documents" for every identity document not uploaded', () => {
    const result = validateApplication(complete, { photoIdFrontUrl: keys.photoIdFrontUrl });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.photoIdBackUrl).toBe(MISSING_ID_DOCUMENTS);
    expect(result.errors.selfieUrl).toBe(MISSING_ID_DOCUMENTS);
    expect(result.errors.photoIdFrontUrl).toBeUndefined();
  });
});
