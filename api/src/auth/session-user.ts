import type { Request } from 'express';
import type { UserView } from '@cbh/contracts';

/** What a request knows about its signed-in account (cached; no database read per request). */
export type SessionUser = Pick<
  UserView,
  'id' | 'email' | 'role' | 'firstName' | 'lastName' | 'profileImageUrl' | 'permissions' | 'isActive'
>;

export type AppRequest = Request & { user?: SessionUser; id?: string };
