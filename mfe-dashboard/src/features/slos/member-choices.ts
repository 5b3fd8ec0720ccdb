import { useMemo } from 'react';
import { useGetBreakersQuery, useGetDomainsQuery } from '@cbh/api-client';
import { breakerRefOf } from '@cbh/contracts';

/** What an indicator may name: each breaker and domain by id with the name people know it by, and the services. */
export interface MemberChoices {
  /** undefined while the breakers are read */
  breakers?: Map<number, string>;
  /** undefined while they are read, or for someone who may not list them (no domain_management) */
  domains?: Map<number, string>;
  /** the services the breakers report for, to suggest */
  services: string[];
}

/**
 * The breakers (named as rules name them: another service's reads agent:<service>/<name>), the domains for a holder
 * of domain_management (the API lists them to no one else), and the services the breakers belong to.
 */
export function useMemberChoices(domainAccess: boolean): MemberChoices {
  const breakers = useGetBreakersQuery();
  const domains = useGetDomainsQuery(undefined, { skip: !domainAccess });
  return useMemo(
    () => ({
      breakers: breakers.data ? new Map(breakers.data.map((breaker) => [breaker.id, breakerRefOf(breaker)])) : undefined,
      domains: domainAccess && domains.data ? new Map(domains.data.map((domain) => [domain.id, domain.domain])) : undefined,
      services: [...new Set((breakers.data ?? []).flatMap((breaker) => (breaker.service ? [breaker.service] : [])))].sort(),
    }),
    [breakers.data, domains.data, domainAccess],
  );
}

/** How an id the list does not hold (a breaker deleted since) is shown, so that it can be seen and removed. */
export const missingName = (what: string, id: number) => `${what} #${id}`;

/**
 * A list of ids as a NamesField edits it: shown by name, picked from the names, and turned back into ids. A name the
 * list does not hold cannot become an id, so it is not taken (the field's warning says why).
 */
export function idsAsNames(
  what: string,
  ids: readonly number[],
  names: Map<number, string> | undefined,
  onChange: (ids: number[]) => void,
) {
  const nameOf = (id: number) => names?.get(id) ?? missingName(what, id);
  const idOf = new Map<string, number>(ids.map((id) => [nameOf(id), id]));
  for (const [id, name] of names ?? []) idOf.set(name, id);
  return {
    value: ids.map(nameOf),
    options: names ? [...names.values()].sort((a, b) => a.localeCompare(b)) : undefined,
    onChange: (picked: string[]) => onChange(picked.flatMap((name) => (idOf.has(name) ? [idOf.get(name)!] : []))),
  };
}
