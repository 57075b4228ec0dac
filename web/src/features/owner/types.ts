/** The admin calls' answers (spec section 7 "Admin", worker admin view in section 3). Money in cents. */
export type ApplicationDocument = 'idFront' | 'idBack' | 'selfie';

export interface PendingWorker {
  id: string;
  fullName: string;
  email: string;
  phone: string;
  address: string;
  yearsExp: number;
  categories: string[];
  hourlyRate: number;
  workingHours: string | null;
  availableSameDay: boolean | null;
  submittedAt: string;
  documents: ApplicationDocument[];
}

export interface AdminWorker {
  id: string;
  fullName: string;
  email: string;
  phone: string;
  createdAt: string;
  yearsExp: number;
  hourlyRate: number;
  categories: string[];
  status: string;
  isAvailable: boolean;
  strikes: number;
}

export interface CompanyApplicationSummary {
  id: string;
  companyName: string;
  contactPersonName: string;
  emailAddress: string;
  phoneNumber: string;
  businessType: string;
  workerTypesNeeded: string[];
  typicalWorkerCount: string;
  averageProjectDuration: string;
  status: string;
  submittedAt: string;
  documents: string[];
}

export interface AdminJob {
  id: string;
  category: string;
  customerName?: string;
  address?: string;
  description?: string;
  hourlyRate?: number;
  state: string;
  createdAt: string;
  acceptedBy?: string | null;
}

interface Counts {
  pending: number;
  approved: number;
  rejected: number;
}

export interface Analytics {
  applications: Counts;
  companyApplications: Counts;
  workers: { active: number; pendingReview: number; terminated: number; available: number };
  jobs: { byState: Record<string, number>; total: number };
  averageRating: number | null;
  reviewCount: number;
}

export const adminKeys = {
  pending: ['/api/admin/workers/pending'],
  workers: ['/api/admin/workers/all'],
  jobs: ['/api/admin/jobs/all'],
  analytics: ['/api/admin/analytics'],
  companyApplications: ['/api/admin/company-applications'],
} as const;

/** Spec section 9: admin pending 10 s, workers 15 s, jobs 5 s. */
export const pollMs = { pending: 10_000, workers: 15_000, jobs: 5_000 } as const;
