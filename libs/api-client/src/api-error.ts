/** The message an API error response carries in its body (`{ message }`), if any. */
export function apiErrorMessage(error: unknown): string | undefined {
  const message = (error as { data?: { message?: unknown } } | undefined)?.data?.message;
  return typeof message === 'string' ? message : undefined;
}
