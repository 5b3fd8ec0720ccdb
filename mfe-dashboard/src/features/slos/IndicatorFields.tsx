import { useId } from 'react';
import { REMOTE_NAMES, SLO_INDICATOR_KINDS, SLO_INDICATOR_LABELS, type RemoteName, type SloIndicatorKind } from '@cbh/contracts';
import { FormField, Select, TextInput } from '@cbh/ui';
import { NamesField, TextField } from '../shared/form-parts';
import type { useFormDraft } from '../shared/use-form-draft';
import { idsAsNames, type MemberChoices } from './member-choices';
import { isBreakerKind, type SloDraft, type SloField } from './slo-form';

type SloFormState = ReturnType<typeof useFormDraft<SloDraft, SloField>>;

const MEMBERS_CHOICES: { value: SloDraft['members']; label: string }[] = [
  { value: 'breakers', label: 'The breakers picked' },
  { value: 'service', label: 'Every breaker of a service' },
];

/** Only what the hub holds can be picked: a chip the list does not hold is one deleted since the SLO was saved. */
const gone = (name: string) => `${name} is no longer on the hub: remove it.`;

/**
 * What the objective counts: its kind (domain uptime offered to holders of domain_management only, who alone may read
 * domains), then the fields that kind takes — breakers picked or a service, a latency's threshold, domains, a remote.
 */
export function IndicatorFields({ form, choices, domainAccess }: { form: SloFormState; choices: MemberChoices; domainAccess: boolean }) {
  const { draft } = form;
  const servicesId = useId();
  const kinds = SLO_INDICATOR_KINDS.filter((kind) => domainAccess || kind !== 'domain-uptime' || draft.kind === kind);
  /** The breakers or the domains, picked by name from the hub's and kept by id. */
  const members = (field: 'breakers' | 'domains', label: string, placeholder: string) => (
    <NamesField
      label={label}
      hint={`Pick from the hub's ${field}.`}
      problem={form.problem(field)}
      {...idsAsNames(field.slice(0, -1), draft[field], choices[field], (ids) => form.change(field, ids))}
      unknown={gone}
      placeholder={placeholder}
    />
  );

  return (
    <>
      <FormField label="Indicator" hint="What counts as a good event." problem={form.problem('kind')}>
        {(described) => (
          <Select value={draft.kind} onChange={(event) => form.change('kind', event.target.value as SloIndicatorKind)} {...described}>
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {SLO_INDICATOR_LABELS[kind]}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      {isBreakerKind(draft.kind) ? (
        <>
          <FormField label="Which breakers" hint="A service's breakers include those its agents report later.">
            {(described) => (
              <Select
                value={draft.members}
                onChange={(event) => form.change('members', event.target.value as SloDraft['members'])}
                {...described}
              >
                {MEMBERS_CHOICES.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
          {draft.members === 'breakers' ? (
            members('breakers', 'Breakers', 'payments')
          ) : (
            <FormField label="Service" hint="As its agents and scrapes name it." problem={form.problem('service')}>
              {(described) => (
                <>
                  <TextInput
                    value={draft.service}
                    onChange={(event) => form.change('service', event.target.value)}
                    list={servicesId}
                    autoComplete="off"
                    placeholder="checkout"
                    {...described}
                  />
                  <datalist id={servicesId}>
                    {choices.services.map((service) => (
                      <option key={service} value={service} />
                    ))}
                  </datalist>
                </>
              )}
            </FormField>
          )}
          {draft.kind === 'breaker-latency' ? (
            <TextField
              label="Threshold (ms)"
              inputMode="numeric"
              hint="A call answered in less is a good event."
              {...form.field('thresholdMs')}
            />
          ) : null}
        </>
      ) : null}
      {draft.kind === 'domain-uptime' ? members('domains', 'Domains', 'example.com') : null}
      {draft.kind === 'remote-loads' ? (
        <FormField label="Remote" hint="A load of it that rendered is a good event." problem={form.problem('remote')}>
          {(described) => (
            <Select value={draft.remote} onChange={(event) => form.change('remote', event.target.value as RemoteName)} {...described}>
              <option value="">Pick a remote</option>
              {REMOTE_NAMES.map((remote) => (
                <option key={remote} value={remote}>
                  {remote}
                </option>
              ))}
            </Select>
          )}
        </FormField>
      ) : null}
    </>
  );
}
