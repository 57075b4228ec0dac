import * as z from 'zod/mini';
import { jobSizeField, requestedTimeField } from './estimate';
import { strictBody } from '../validation';
import { MAX_FIX_ACCURACY_M } from '../domain/geo';
import { deliverableEmail, notCoordinates, phone, text } from './fields';
import { requestServices } from './request';

/** The views the job calls answer: zod schemas (the tests check answers with them), types here. */
export type {
  AddressSuggestion,
  AssignedWorkerView,
  CompletedJobView,
  DispatchStatus,
  GeocodeResult,
  JobKind,
  JobOfferView,
  JobTimes,
  PaymentConfirmationView,
  ServiceRequestView,
  TrackedRequestView,
  TrackLookupResult,
  TrackViewer,
  WorkerArrivalClaimView,
  WorkerJobView,
  WorkerListingView,
} from './views/job';

/**
 * The job calls of the worker app and the customer's hire, with the views they answer.
 * Money is integer cents; times are ISO strings; a worker id in a body is optional and, when sent,
 * must be the token's worker: a worker acts only on their own jobs.
 */
const workerId = z.optional(z.string({ error: 'workerId must be text' }).check(z.maxLength(64, 'workerId is too long')));

/** POST /api/jobs/accept/{jobId}, /decline/{jobId}, /{id}/complete. */
export const jobActionSchema = strictBody({ workerId });

/** The steps a worker sets with POST /api/jobs/{id}/state; completing has its own call. */
export const workerSettableStates = ['en_route', 'arrived', 'in_progress'] as const;
/** The device's fix sent with Mark Arrived (shared/domain/arrival.ts decides whether it proves arrival). */
const arrivalPosition = z.strictObject(
  {
    lat: z.number({ error: 'position.lat must be a number' }).check(z.gte(-90, 'position.lat must be between -90 and 90'), z.lte(90, 'position.lat must be between -90 and 90')),
    lng: z.number({ error: 'position.lng must be a number' }).check(z.gte(-180, 'position.lng must be between -180 and 180'), z.lte(180, 'position.lng must be between -180 and 180')),
    accuracy: z.number({ error: 'position.accuracy must be a number of metres' }).check(
      z.gte(0, 'position.accuracy cannot be negative'),
      z.lte(100_000, 'position.accuracy must be at most 100000 metres'),
    ),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field in position: ${issue.keys.join(', ')}` : 'position must be { lat, lng, accuracy }') },
);
export const jobStateSchema = strictBody({
  state: z.enum(workerSettableStates, { error: 'state must be en_route, arrived or in_progress' }),
  workerId,
  position: z.optional(arrivalPosition),
});

/** POST /api/requests/{id}/arrival: the customer's answer to "Has your pro arrived?". */
export const arrivalAnswerSchema = strictBody({
  arrived: z.boolean({ error: 'arrived must be true or false' }),
});

const latitude = z.number({ error: 'Latitude must be a number' }).check(
  z.gte(-90, 'Latitude must be between -90 and 90'),
  z.lte(90, 'Latitude must be between -90 and 90'),
);
const longitude = z.number({ error: 'Longitude must be a number' }).check(
  z.gte(-180, 'Longitude must be between -180 and 180'),
  z.lte(180, 'Longitude must be between -180 and 180'),
);

/** POST /api/workers/location: where dispatch measures a clocked-in worker's distance from. */
export const workerLocationSchema = strictBody({
  latitude,
  longitude,
  // No fix is vaguer than half the Earth's circumference.
  accuracy: z.optional(
    z.number({ error: 'Accuracy must be a number of metres' }).check(
      z.gte(0, 'Accuracy cannot be negative'),
      z.lte(MAX_FIX_ACCURACY_M, 'Accuracy must be at most 20,000 km'),
    ),
  ),
});

/** POST /api/hire: the client dashboard's Hire Now, offered to that worker first. */
export const hireSchema = strictBody({
  workerId: text('Choose a worker to hire', z.minLength(1, 'Choose a worker to hire'), z.maxLength(64, 'workerId is too long')),
  name: text('Name is required', z.minLength(1, 'Name is required'), z.maxLength(100, 'Name must be at most 100 characters')),
  email: deliverableEmail('Please enter a valid email address'),
  phoneNumber: phone('Please enter a valid phone number'),
  service: z.enum(requestServices, { error: 'Please choose a service' }),
  location: text('Location is required', z.minLength(1, 'Location is required'), z.maxLength(200, 'Location must be at most 200 characters'), notCoordinates()),
  description: text(
    'Please describe the problem in at least 10 characters',
    z.minLength(10, 'Please describe the problem in at least 10 characters'),
    z.maxLength(2000, 'Description must be at most 2000 characters'),
  ),
  clientLatitude: z.optional(latitude),
  clientLongitude: z.optional(longitude),
  gpsEnabled: z.optional(z.boolean({ error: 'gpsEnabled must be true or false' })),
  requestedTime: requestedTimeField,
  jobSize: jobSizeField,
});
export type HireInput = z.infer<typeof hireSchema>;

