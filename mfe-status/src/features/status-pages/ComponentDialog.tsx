import { useState, type FormEvent } from 'react';
import { apiErrorMessage, useGetBreakersQuery, useGetDomainsQuery } from '@cbh/api-client';
import { STATUS_PAGE_LIMITS, type StatusComponentInput } from '@cbh/contracts';
import { FieldRow, Fieldset, Form, FormField, Hint, TextArea, TextInput } from '@cbh/ui';
import { Dialog } from '@cbh/ui/overlays';
import { FormEnd } from './form-kit';
import { MemberPicker } from './MemberPicker';

const L = STATUS_PAGE_LIMITS;

const lengthProblem = (text: string, max: number, required: boolean) =>
  required && !text.trim() ? 'must not be empty' : text.trim().length > max ? `must be at most ${max} characters` : undefined;

/**
 * Add or edit one component: its name, description and group as the public page shows them, and the breakers and
 * domains whose state drives it. Domains are offered to holders of domain_management only (the API asks it of a page
 * with domain components too); without it, the ones already chosen are kept.
 */
export function ComponentDialog({
  component,
  takenNames,
  domainAccess,
  save,
  onClose,
}: {
  component?: StatusComponentInput;
  /** the other components' names: two may not be named alike */
  takenNames: readonly string[];
  domainAccess: boolean;
  /** sends the page's new list; rejects with the server's refusal */
  save: (component: StatusComponentInput) => Promise<unknown>;
  onClose: () => void;
}) {
  const breakers = useGetBreakersQuery();
  const domains = useGetDomainsQuery(undefined, { skip: !domainAccess });
  const [name, setName] = useState(component?.name ?? '');
  const [description, setDescription] = useState(component?.description ?? '');
  const [group, setGroup] = useState(component?.group ?? '');
  const [breakerIds, setBreakers] = useState<number[]>(component?.breakers ?? []);
  const [domainIds, setDomains] = useState<number[]>(component?.domains ?? []);
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const taken = takenNames.some((each) => each.toLowerCase() === name.trim().toLowerCase());
  const problems = {
    name: lengthProblem(name, L.nameLength, true) ?? (taken ? 'another component has this name' : undefined),
    description: lengthProblem(description, L.descriptionLength, false),
    group: lengthProblem(group, L.groupLength, false),
  };
  const valid = !problems.name && !problems.description && !problems.group;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    setPending(true);
    try {
      await save({
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
        ...(group.trim() ? { group: group.trim() } : {}),
        breakers: breakerIds,
        domains: domainIds,
      });
      onClose();
    } catch (error) {
      setRefusal(apiErrorMessage(error) ?? 'The component could not be saved.');
      setPending(false);
    }
  };

  const title = component ? `Edit ${component.name}` : 'Add component';
  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={title}
      description="Its state follows what it includes: a major outage when all of them fail, a partial outage when some do."
    >
      <Form onSubmit={submit} aria-label={title} noValidate>
        <Fieldset disabled={pending}>
          <FieldRow>
            <FormField label="Name" problem={name ? problems.name : undefined}>
              {(described) => (
                <TextInput value={name} onChange={(event) => setName(event.target.value)} placeholder="Checkout API" {...described} />
              )}
            </FormField>
            <FormField label="Group" hint="Optional: components of one group are shown together." problem={problems.group}>
              {(described) => (
                <TextInput value={group} onChange={(event) => setGroup(event.target.value)} placeholder="Payments" {...described} />
              )}
            </FormField>
          </FieldRow>
          <FormField label="Description" hint="Optional: what it is, in the words of the people who use it." problem={problems.description}>
            {(described) => <TextArea value={description} onChange={(event) => setDescription(event.target.value)} {...described} />}
          </FormField>
          <FieldRow>
            <MemberPicker
              legend="Breakers"
              members={breakers.data?.map((breaker) => ({
                id: breaker.id,
                name: breaker.name,
                detail: [breaker.service, breaker.state].filter(Boolean).join(' · '),
              }))}
              unavailable={breakers.isError ? 'The breakers could not be loaded.' : undefined}
              value={breakerIds}
              onChange={setBreakers}
            />
            {domainAccess ? (
              <MemberPicker
                legend="Domains"
                members={domains.data?.map((domain) => ({ id: domain.id, name: domain.domain, detail: domain.status }))}
                unavailable={domains.isError ? 'The domains could not be loaded.' : undefined}
                value={domainIds}
                onChange={setDomains}
              />
            ) : (
              <Hint role="note">
                {domainIds.length
                  ? `It includes ${domainIds.length} domain(s), kept as they are: changing them needs the domain_management permission.`
                  : 'Domains can be added by holders of the domain_management permission.'}
              </Hint>
            )}
          </FieldRow>
          <FormEnd dialog refusal={refusal} submit={pending ? 'Saving...' : 'Save'} disabled={!valid} onCancel={onClose} />
        </Fieldset>
      </Form>
    </Dialog>
  );
}
