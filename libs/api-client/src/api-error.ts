/** The message an API error response carries in its body (`{ message }`), if any. */
export function apiErrorMessage(error: unknown): string | undefined {
  const message = (error as { data?: { message?: unknown } } | undefined)?.data?.message;
  return typeof message === 'string' ? message : undefined;
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * A failure's text: the product's own words for what did not happen, then the server's reason as a second sentence
 * when its answer gave one (else `fallbackReason`, if any). The server's words never stand in for the product's:
 * they say why, not what failed.
 */
export function failureText(what: string, error: unknown, fallbackReason?: string): string {
  const reason = apiErrorMessage(error) ?? fallbackReason;
  return reason ? `${sentence(what)} ${sentence(reason)}` : what;
}
