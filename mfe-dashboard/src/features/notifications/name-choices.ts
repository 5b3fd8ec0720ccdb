import { useGetBreakersQuery, useGetDomainsQuery } from '@cbh/api-client';
import { breakerRefOf } from '@cbh/contracts';

/**
 * The names a rule or a window may pick from: every breaker as a rule names it (a plain name for the hub's own,
 * agent:<service>/<name> or scrape:<service>/<name> for another service's), and the domains, read only for a holder
 * of domain_management (the API lets no one else list them). Undefined while a list is not read, or cannot be: its
 * names are then taken as typed, without a warning.
 */
export function useNameChoices(domainAccess: boolean): { breakers?: string[]; domains?: string[] } {
  const breakers = useGetBreakersQuery();
  const domains = useGetDomainsQuery(undefined, { skip: !domainAccess });
  return {
    breakers: breakers.data ? [...new Set(breakers.data.map(breakerRefOf))].sort((a, b) => a.localeCompare(b)) : undefined,
    domains: domainAccess && domains.data ? domains.data.map((domain) => domain.domain).sort((a, b) => a.localeCompare(b)) : undefined,
  };
}
