import { createHash } from 'node:crypto';

/** A session's id as replicas name it to each other: a hash, so no usable session id travels over the fan-out. */
export function sessionKey(sid: string): string {
  return createHash('sha256').update(sid).digest('hex');
}
