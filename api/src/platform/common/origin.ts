/**
 * Whether a new URL is on another origin (scheme, host, port) than the one a credential was given for: a scrape
 * target's bearer token and a webhook's signing secret go to another origin only when given again for it.
 */
export const movesOrigin = (from: string, to: string) => new URL(from).origin !== new URL(to).origin;
