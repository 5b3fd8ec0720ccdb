import { apiErrorMessage } from '@cbh/api-client';

/**
 * The API names the field a refusal is about first ("slug: must be …", "components.0.name: must not be empty"):
 * such a refusal goes under that field; any other, above the form's buttons.
 */
export function refusalOf(error: unknown, fields: readonly string[]): { field?: string; problem: string } | null {
  const message = apiErrorMessage(error);
  if (!message) return null;
  const named = /^([\w.]+): (.+)$/.exec(message);
  const field = named?.[1]?.split('.')[0];
  if (named && field && fields.includes(field)) return { field, problem: named[2]! };
  return { problem: message };
}
