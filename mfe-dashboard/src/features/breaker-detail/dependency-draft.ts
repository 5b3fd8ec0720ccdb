import {
  breakerRefOf,
  DEPENDENCIES_PER_BREAKER,
  SERVICE_NAME_PATTERN,
  type BreakerConfigView,
  type BreakerDependenciesView,
  type Dependency,
  type DomainView,
} from '@cbh/contracts';
import { compact, type Problems } from '../shared/form-checks';

/*
 * The dependencies form speaks in names (what people pick and type: a domain, a breaker as rules name it, a service),
 * the API in ids for domains and breakers: this turns one into the other, both ways, and judges a draft as the API's
 * schema would.
 */

export interface DependencyDraft {
  domains: string[];
  breakers: string[];
  services: string[];
}
export const DEPENDENCY_FIELDS = ['domains', 'breakers', 'services'] as const;
export type DependencyField = (typeof DEPENDENCY_FIELDS)[number];

/** The names a draft may pick, each with its id; `self` is left out (a breaker cannot depend on itself). */
export interface DependencyChoices {
  /** undefined: the domains cannot be listed (no domain_management); the breaker's own are kept as they are */
  domains?: Map<string, number>;
  breakers: Map<string, number>;
  services: string[];
}

export function choicesOf(
  self: number,
  breakers: readonly BreakerConfigView[],
  domains: readonly DomainView[] | undefined,
  current: BreakerDependenciesView,
): DependencyChoices {
  const breakerIds = new Map<string, number>();
  // what it depends on now keeps its name even if the list no longer holds it (the API then says what is wrong)
  for (const parent of current.dependsOn) if (parent.kind === 'breaker' && parent.id !== null) breakerIds.set(parent.name, parent.id);
  for (const breaker of breakers) if (breaker.id !== self) breakerIds.set(breakerRefOf(breaker), breaker.id);
  const services = [...new Set(breakers.flatMap((breaker) => (breaker.service ? [breaker.service] : [])))].sort((a, b) =>
    a.localeCompare(b),
  );
  return {
    domains: domains ? new Map(domains.map((domain) => [domain.domain, domain.id])) : undefined,
    breakers: breakerIds,
    services,
  };
}

/** The draft of what the breaker depends on now, a breaker by the name rules give it (agent:checkout/charge-card). */
export function draftOf(current: BreakerDependenciesView, breakers: readonly BreakerConfigView[]): DependencyDraft {
  const refs = new Map(breakers.map((breaker) => [breaker.id, breakerRefOf(breaker)]));
  const of = (kind: Dependency['kind']) => current.dependsOn.filter((parent) => parent.kind === kind);
  return {
    domains: of('domain').map((parent) => parent.name),
    breakers: of('breaker').map((parent) => (parent.id !== null ? (refs.get(parent.id) ?? parent.name) : parent.name)),
    services: of('service').map((parent) => parent.name),
  };
}

/** The domains kept as they are for someone who may not list domains: the breaker's own, by id. */
export function keptDomains(current: BreakerDependenciesView): Dependency[] {
  return current.dependsOn.flatMap((parent) => (parent.kind === 'domain' && parent.id !== null ? [{ kind: 'domain', id: parent.id }] : []));
}

/** The body's list: domains, then breakers, then services, each in the order picked. */
export function dependsOnOf(draft: DependencyDraft, choices: DependencyChoices, current: BreakerDependenciesView): Dependency[] {
  const domains: Dependency[] = choices.domains
    ? draft.domains.flatMap((name) => {
        const id = choices.domains!.get(name);
        return id === undefined ? [] : [{ kind: 'domain' as const, id }];
      })
    : keptDomains(current);
  const breakers = draft.breakers.flatMap((name) => {
    const id = choices.breakers.get(name);
    return id === undefined ? [] : [{ kind: 'breaker' as const, id }];
  });
  return [...domains, ...breakers, ...draft.services.map((name) => ({ kind: 'service' as const, name }))];
}

/** Only what the hub holds can be saved (the field's warning names which is not): Save waits until it is removed. */
const unknown = (names: readonly string[], known: { has: (name: string) => boolean } | undefined, what: string) => {
  const missing = known ? names.filter((name) => !known.has(name)) : [];
  return missing.length ? `only ${what} the hub holds can be saved: remove the one marked` : undefined;
};

/** What is wrong with a draft: a name the lists do not hold, a service name the API refuses, too many parents. */
export function dependencyProblems(choices: DependencyChoices, current: BreakerDependenciesView) {
  return (draft: DependencyDraft): Problems<DependencyField | 'count'> => {
    const badServices = draft.services.filter((name) => !SERVICE_NAME_PATTERN.test(name.trim()));
    const count = (choices.domains ? draft.domains.length : keptDomains(current).length) + draft.breakers.length + draft.services.length;
    return compact({
      domains: unknown(draft.domains, choices.domains, 'domains'),
      breakers: unknown(draft.breakers, choices.breakers, 'breakers'),
      services: badServices.length ? `${badServices.join(', ')}: must be lower-case letters, digits and hyphens` : undefined,
      count: count > DEPENDENCIES_PER_BREAKER ? `at most ${DEPENDENCIES_PER_BREAKER} in all, not ${count}` : undefined,
    });
  };
}

/** Whether two lists name the same parents, whatever their order. */
export function sameParents(a: readonly Dependency[], b: readonly Dependency[]): boolean {
  const key = (list: readonly Dependency[]) =>
    list
      .map((parent) => JSON.stringify(parent))
      .sort()
      .join('|');
  return key(a) === key(b);
}

/** What the breaker depends on now, as the body would send it. */
export function currentParents(current: BreakerDependenciesView): Dependency[] {
  return current.dependsOn.flatMap((parent): Dependency[] => {
    if (parent.kind === 'service') return [{ kind: 'service', name: parent.name }];
    return parent.id === null ? [] : [{ kind: parent.kind, id: parent.id }];
  });
}
