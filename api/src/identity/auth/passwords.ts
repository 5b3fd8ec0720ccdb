import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (19 MiB, 2 passes, 1 lane): OWASP's minimum recommendation.
export const hashPassword = (password: string) => hash(password);

/** A hash of a random string, checked when the e-mail is unknown so both cases take the same time. */
const DECOY = hash('decoy password that matches nothing');

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await DECOY, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
