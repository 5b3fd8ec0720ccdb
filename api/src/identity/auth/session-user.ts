import type { IncomingMessage } from 'node:http';
import type { Session, SessionData } from 'express-session';
import type { FastifyRequest } from 'fastify';
import type { UserView } from '@cbh/contracts';

/** What a request knows about its signed-in account (cached; no database read per request). */
export type SessionUser = Pick<
  UserView,
  'id' | 'email' | 'role' | 'firstName' | 'lastName' | 'profileImageUrl' | 'permissions' | 'isActive'
>;

/** The personal access token a request was made with: which one, never its secret. */
export interface TokenCredential {
  id: string;
  name: string;
  prefix: string;
  userId: string;
}

/** The raw request as the session middleware (express-session, passport) leaves it. */
export type SessionRequest = IncomingMessage & {
  user?: SessionUser;
  session?: Session & Partial<SessionData>;
  sessionID?: string;
  secure?: boolean;
  logIn?: (user: SessionUser, done: (error?: unknown) => void) => void;
  logout?: (done: (error?: unknown) => void) => void;
};

/** A request as the handlers see it: Fastify's, with the account and session the middleware found. */
export type AppRequest = FastifyRequest & {
  user?: SessionUser;
  /** Set when the request was made with a personal access token (then `user` holds what the token may do). */
  apiToken?: TokenCredential;
  session?: Session & Partial<SessionData>;
  sessionID?: string;
};
