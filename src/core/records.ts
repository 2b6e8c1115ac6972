/** The ground's records: accounts and their keys. API shapes come from the contract. */
import type { z } from 'zod';
import type { LimitsSchema } from './accounts/limits.js';

export interface Account {
  id: string;
  name: string;
  features: string[];
  tokenBalance: number;
  limits: z.infer<typeof LimitsSchema>;
  downloadMode: 'auth' | 'signed';
  clockMode: string;
  /** Virtual ms at the clock's anchor; where a restarted emulator's clock resumes. */
  clockNow: number;
  /** Wall ms at which the clock stood at `clockNow` (null: not anchored yet). */
  clockWall: number | null;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}
