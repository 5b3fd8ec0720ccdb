import { ConflictException } from '@nestjs/common';

const UNIQUE_VIOLATION = '23505';

/**
 * Runs a write that gives `name` to a breaker or a service, whose names are unique whatever their letter case: the
 * unique index decides, so two requests at once cannot both take one, and the loser gets a 409 naming the clash.
 */
export async function withUniqueName<T>(what: string, name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new ConflictException(`A ${what} named ${name} already exists`);
    throw error;
  }
}
