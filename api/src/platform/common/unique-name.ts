import { ConflictException } from '@nestjs/common';

const UNIQUE_VIOLATION = '23505';

/**
 * Runs a write that gives names to breakers or services, whose names are unique whatever their letter case: the
 * unique index decides, so two requests at once cannot both take one, and the loser gets a 409 naming the clash
 * (`name`, or when a write gives many names, the one PostgreSQL reports in lower case).
 */
export async function withUniqueName<T>(what: string, name: string | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const { code, detail } = error as { code?: string; detail?: string };
    if (code !== UNIQUE_VIOLATION) throw error;
    const taken = name ?? /\)=\((.*)\) already exists/.exec(detail ?? '')?.[1] ?? 'so';
    throw new ConflictException(`A ${what} named ${taken} already exists`);
  }
}
