import { createContext, useContext } from 'react';
import type { AuthUser } from '@cbh/contracts';

/**
 * Who the session probe found before the first paint (null: signed out; undefined: no clear answer), for the parts
 * of the shell that are drawn with or without the store (the not-found page).
 */
export const ProbedSession = createContext<AuthUser | null | undefined>(undefined);

export const useProbedSession = () => useContext(ProbedSession);
