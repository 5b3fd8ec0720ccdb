import type { Request } from 'express';

/** What a request knows about its signed-in account (cached; no database read per request). */
export interface SessionUser {
  id: string;
  email: string;
  role: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  permissions: string[];
  isActive: boolean;
}

export type AppRequest = Request & { user?: SessionUser; id?: string };
