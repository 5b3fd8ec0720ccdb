import { useMemo } from 'react';
import { useGetBreakersQuery, useGetDomainsQuery, useSetBreakerDependenciesMutation } from '@cbh/api-client';
import { DEPENDENCIES_PER_BREAKER, type BreakerConfigView, type BreakerDependenciesView } from '@cbh/contracts';
import { Hint, plural, Problem } from '@cbh/ui';
import { FormDialog } from '../shared/form-dialog';
import { NamesField } from '../shared/form-parts';
import { useFormDraft } from '../shared/use-form-draft';
import { choicesOf, currentParents, DEPENDENCY_FIELDS, dependencyProblems, dependsOnOf, draftOf, sameParents } from './dependency-draft';

const notKnown = (what: string) => (name: string) => `${name}: no ${what} of the hub is named so; pick one from the list.`;

/**
 * Edits what a breaker depends on, for holders of circuit_breaker_admin: domains and breakers picked from the hub's
 * (domains only for holders of domain_management, who may list them; for anyone else the breaker's own are kept),
 * services typed by name as their agents and scrapes report them. Save sends the whole list with PUT.
 */
export function DependenciesDialog({
  breaker,
  current,
  domainAccess,
  onClose,
}: {
  breaker: BreakerConfigView;
  current: BreakerDependenciesView;
  domainAccess: boolean;
  onClose: () => void;
}) {
  // the breaker's page has read the breakers already: this is the same cache
  const breakers = useGetBreakersQuery();
  const domains = useGetDomainsQuery(undefined, { skip: !domainAccess });
  const choices = useMemo(
    () => choicesOf(breaker.id, breakers.data ?? [], domainAccess ? (domains.data ?? []) : undefined, current),
    [breaker.id, breakers.data, domains.data, domainAccess, current],
  );
  const judge = useMemo(() => dependencyProblems(choices, current), [choices, current]);
  const form = useFormDraft(draftOf(current, breakers.data ?? []), judge, DEPENDENCY_FIELDS);
  const [save, { isLoading }] = useSetBreakerDependenciesMutation();
  const dependsOn = dependsOnOf(form.draft, choices, current);
  const tooMany = judge(form.draft).count;
  const kept = current.dependsOn.filter((parent) => parent.kind === 'domain');

  return (
    <FormDialog
      title={`What ${breaker.name} depends on`}
      description="While the alert group of something it depends on is open, its events join that group instead of paging anyone again."
      formLabel="Dependencies"
      form={form}
      pending={isLoading}
      unchanged={sameParents(dependsOn, currentParents(current))}
      save={() => save({ id: breaker.id, dependsOn }).unwrap()}
      saved={(saved) => ({
        title: 'Dependencies Saved',
        description: saved.dependsOn.length
          ? `${breaker.name} depends on ${plural(saved.dependsOn.length, 'parent')}.`
          : `${breaker.name} depends on nothing: its events open alert groups of their own.`,
      })}
      failure="Failed to save the dependencies."
      onClose={onClose}
    >
      {domainAccess ? (
        <NamesField
          label="Domains"
          hint="Pick from the hub's domains."
          {...form.field('domains')}
          options={domains.data ? [...choices.domains!.keys()] : undefined}
          unknown={notKnown('domain')}
          placeholder="example.com"
        />
      ) : (
        <Hint>
          {kept.length
            ? `Domains: ${kept.map((parent) => parent.name).join(', ')} (kept; choosing domains needs domain_management).`
            : 'Choosing domains needs domain_management.'}
        </Hint>
      )}
      <NamesField
        label="Breakers"
        hint="Pick from the hub's breakers; another service's read agent:<service>/<name> or scrape:<service>/<name>."
        {...form.field('breakers')}
        options={breakers.data ? [...choices.breakers.keys()] : undefined}
        unknown={notKnown('breaker')}
        placeholder="payments"
      />
      <NamesField
        label="Services"
        hint="A service as its agents and scrapes name it; any of its breakers' groups quiets this one."
        {...form.field('services')}
        options={choices.services}
        unknown={(name) => `${name}: no breaker of this service reports yet; it is kept for when one does.`}
        placeholder="checkout"
      />
      {tooMany ? <Problem role="alert">{`Dependencies: ${tooMany}`}</Problem> : null}
      <Hint>{`At most ${DEPENDENCIES_PER_BREAKER} in all.`}</Hint>
    </FormDialog>
  );
}
