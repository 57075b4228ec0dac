import type { ApplicationStatus } from './applications';

/** The owner's answers (spec section 7 "Admin"): one definition for the handlers and the screens. */
export type WorkerDocument = 'idFront' | 'idBack' | 'selfie';
export type CompanyDocument = 'businessLicense' | 'insuranceCertificate';

/** The owner's view of a pending worker application: no SSN, no storage keys. */
export interface PendingWorkerView {
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
  documents: WorkerDocument[];
}

/** The owner's view of a company application: documents by name, never their keys. */
export interface CompanyApplicationView {
  id: string;
  companyName: string;
  businessType: string;
  contactPersonName: string;
  phoneNumber: string;
  emailAddress: string;
  companyAddress: string;
  einTaxId: string | null;
  workerTypesNeeded: string[];
  typicalWorkerCount: string;
  averageProjectDuration: string;
  billingContactName: string | null;
  billingContactEmail: string | null;
  status: ApplicationStatus;
  submittedAt: string;
  documents: CompanyDocument[];
}

/**
 * The owner's view of a job. Jobs arrive with issue 4 and carry keys.allJobs (gsi3); until then
 * the Query below finds none. Rates in cents.
 */
export interface JobAdminView {
  id: string;
  category: string | null;
  customerName: string | null;
  address: string | null;
  description: string | null;
  hourlyRate: number | null;
  createdAt: string | null;
  arrivedAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  state: string;
  acceptedBy: string | null;
  totalHours: number | null;
}

interface StatusCounts {
  pending: number;
  approved: number;
  rejected: number;
}

/** GET /api/admin/analytics: real counts; averageRating (over every review) is null until reviews exist. */
export interface Analytics {
  applications: StatusCounts;
  companyApplications: StatusCounts;
  workers: { active: number; pendingReview: number; terminated: number; available: number };
  jobs: { byState: Record<string, number>; total: number };
  averageRating: number | null;
  reviewCount: number;
  /** Workers with an active probation (rated 2 stars or fewer 3 times in a row). */
  workersOnProbation: number;
}
