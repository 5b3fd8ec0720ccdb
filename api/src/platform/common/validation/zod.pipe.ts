import { BadRequestException, type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';

/** Validates a body, param or query with a schema from @cbh/contracts; a 400 names each bad field. */
export class ZodPipe<T extends z.ZodType> implements PipeTransform<unknown, z.infer<T>> {
  constructor(
    readonly schema: T,
    private readonly label?: string,
  ) {}

  transform(value: unknown): z.infer<T> {
    const result = this.schema.safeParse(value ?? {});
    if (result.success) return result.data;
    const problems = result.error.issues.map((issue) => {
      const field = issue.path.length ? issue.path.join('.') : this.label;
      if (issue.code === 'unrecognized_keys') return `unknown field ${issue.keys.join(', ')}`;
      if (issue.code === 'invalid_type' && valueAt(value, issue.path) === undefined) return `${field}: is required`;
      return field ? `${field}: ${issue.message}` : issue.message;
    });
    throw new BadRequestException(problems.join('; '));
  }
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
