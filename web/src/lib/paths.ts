/**
 * Every route of the app, once. Links use `paths`; the router registers `patterns`. Query values and path parameters are encoded here, nowhere else.
 */
const enc = encodeURIComponent;

export const patterns = {
  home: '/',
  services: '/services',
  service: '/services/:slug',
  book: '/book',
  track: '/track',
  findRequests: '/find-my-requests',
  findRequestsOpen: '/find-my-requests/open',
  contact: '/contact',
  applyCompany: '/apply/company',
  companyApplicationStatus: '/apply/company/status/:id',
  applyWorker: '/apply/worker',
  applyContractor: '/apply/contractor',
  workerApply: '/worker/apply',
  workerLogin: '/worker/login',
  workerSignup: '/worker/signup',
  workerDashboard: '/worker/dashboard',
  workerProfile: '/worker/profile',
  workerJob: '/worker/jobs/:id',
  workerEarnings: '/worker/earnings',
  adminSetup: '/admin/setup',
  adminLogin: '/admin/login',
  admin: '/admin',
  adminJob: '/admin/jobs/:id',
  changePassword: '/account/change-password',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  rate: '/rate/:jobId',
  customer: '/customer',
  clientDashboard: '/client-dashboard',
  workerType: '/worker-type',
  workerDashboardAlias: '/worker-dashboard',
  invoices: '/invoices',
  insurance: '/insurance',
  workers: '/workers',
  contractors: '/contractors',
  download: '/download',
  paymentSuccess: '/payment-success',
  paymentSuccessAlias: '/payment/success',
  paymentCancelled: '/payment-cancelled',
  paymentCancelAlias: '/payment/cancel',
  login: '/login',
  register: '/register',
  dashboard: '/dashboard',
} as const;

export const paths = {
  home: patterns.home,
  services: patterns.services,
  service: (slug: string) => `/services/${enc(slug)}`,
  book: (category?: string) => (category ? `${patterns.book}?category=${enc(category)}` : patterns.book),
  /** The job's id rides in the fragment (#id=): a browser never sends it, so it is in no server's log or Referer. */
  track: (id?: string) => (id ? `${patterns.track}#id=${enc(id)}` : patterns.track),
  /** "Find my requests": a link by mail to the requests made with an address, for another device or a cleared browser. */
  findRequests: patterns.findRequests,
  /** Where a mailed requests link lands; its secret rides in the fragment (#token=), never the path or query. */
  findRequestsOpen: patterns.findRequestsOpen,
  contact: patterns.contact,
  applyCompany: patterns.applyCompany,
  /** The company's own status link: the application's unguessable id is its only credential. */
  companyApplicationStatus: (id: string) => `/apply/company/status/${enc(id)}`,
  applyWorker: patterns.applyWorker,
  workerApply: patterns.workerApply,
  workerLogin: patterns.workerLogin,
  workerSignup: patterns.workerSignup,
  workerDashboard: patterns.workerDashboard,
  workerProfile: patterns.workerProfile,
  workerJob: (id: string) => `/worker/jobs/${enc(id)}`,
  workerEarnings: patterns.workerEarnings,
  adminSetup: patterns.adminSetup,
  adminLogin: patterns.adminLogin,
  admin: patterns.admin,
  /** The owner's page of one job: its timeline and what the owner can do. */
  adminJob: (id: string) => `/admin/jobs/${enc(id)}`,
  /** A tab of the owner's dashboard. */
  adminTab: (tab: string) => `${patterns.admin}?tab=${enc(tab)}`,
  changePassword: patterns.changePassword,
  /** "Forgot password?": asks for a reset link by mail, for a pro or the owner. */
  forgotPassword: patterns.forgotPassword,
  /** Where a mailed reset link lands; its secret rides in the fragment (#token=), never the path or query. */
  resetPassword: patterns.resetPassword,
  rate: (jobId: string) => `/rate/${enc(jobId)}`,
  clientDashboard: patterns.clientDashboard,
  workerType: patterns.workerType,
  workerDashboardAlias: patterns.workerDashboardAlias,
  invoices: patterns.invoices,
  insurance: patterns.insurance,
  workers: patterns.workers,
  /** The home page's featured link; the route redirects to /workers. */
  contractors: patterns.contractors,
  download: patterns.download,
  paymentSuccess: patterns.paymentSuccess,
  paymentCancelled: patterns.paymentCancelled,
  /** The change-password screen's back link; the route itself redirects to the owner login. */
  dashboard: patterns.dashboard,
} as const;

/** Outside addresses the screens link to. */
export const externalLinks = {
  stripe: 'https://stripe.com',
} as const;

/** A mailto: link with a preset subject. */
export function mailto(address: string, subject: string): string {
  return `mailto:${address}?subject=${enc(subject)}`;
}
