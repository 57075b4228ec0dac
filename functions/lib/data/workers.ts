import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { WorkerSelf, WorkerStatus, WorkerType } from '../../../shared/schemas/worker';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';

/** A worker's profile row (WORKER#id / PROFILE). Rates in cents; SSN digits never live here. */
export interface WorkerItem {
  pk: string;
  sk: string;
  gsi2pk: string;
  gsi2sk: string;
  entity: 'worker';
  id: string;
  applicationId: string;
  fullName: string;
  email: string;
  phone: string;
  address: string;
  status: WorkerStatus;
  strikes: number;
  isVerified: boolean;
  isAvailable: boolean;
  isClockedIn: boolean;
  lastClockIn: string | null;
  yearsExp: number;
  categories: string[];
  hourlyRate: number;
  workerType: WorkerType | null;
  profilePhotoKey: string | null;
  hasAccount: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toWorkerSelf(item: WorkerItem, profilePhotoUrl: string | null = null): WorkerSelf {
  return {
    id: item.id,
    fullName: item.fullName,
    email: item.email,
    status: item.status,
    strikes: item.strikes,
    isAvailable: item.isAvailable,
    isClockedIn: item.isClockedIn,
    lastClockIn: item.lastClockIn,
    yearsExp: item.yearsExp,
    categories: item.categories,
    hourlyRate: item.hourlyRate,
    workerType: item.workerType,
    profilePhotoUrl,
  };
}

export const workersRepo = {
  async findById(id: string): Promise<WorkerItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.worker(id) }));
    return out.Item as WorkerItem | undefined;
  },
};
