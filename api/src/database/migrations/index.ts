import { ApiInstances1763800000000 } from './1763800000000-ApiInstances';

/** Every schema change, oldest first; one migration per change. */
export const MIGRATIONS = [ApiInstances1763800000000];
