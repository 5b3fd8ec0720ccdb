import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useGetOrganizationsQuery, useUpdateOrganizationMutation } from '@cbh/api-client';
import type { OrganizationView } from '@cbh/contracts';
import { Button, Card, FieldLabel, Fieldset, Muted, SectionTitle, TextInput, theme, toast } from '@cbh/ui';

const FIELDS = ['name', 'invitationDomains', 'maxTokenDays', 'idleSessionMinutes'] as const;
type Field = (typeof FIELDS)[number];
type Problems = Partial<Record<Field | 'form', string>>;

const Form = styled.form`
  display: grid;
  gap: 16px;
  max-width: 560px;
`;

/** A field with its problem under it, outside the label so the problem is not read as part of the field's name. */
const Field = styled.div`
  display: grid;
  gap: 6px;
`;

const TextArea = styled.textarea`
  font: inherit;
  font-size: 14px;
  padding: 8px 10px;
  border: 1px solid ${theme.colors.border};
  border-radius: 6px;
  min-height: 96px;
`;

const Hint = styled.span`
  font-size: 13px;
  font-weight: 400;
  color: ${theme.colors.muted};
`;

const Problem = styled.span`
  font-size: 13px;
  font-weight: 400;
  color: ${theme.colors.destructive};
`;

/**
 * The API's 400 names each bad field ('maxTokenDays: must be at most 365 days; invitationDomains.2: …'): each goes
 * under its field, anything else above the Save button.
 */
function problemsOf(message: string): Problems {
  const problems: Problems = {};
  for (const part of message.split('; ')) {
    const field = FIELDS.find((name) => part.startsWith(`${name}:`) || part.startsWith(`${name}.`));
    const key = field ?? 'form';
    problems[key] = problems[key] ? `${problems[key]}; ${part}` : part;
  }
  return problems;
}

function SettingsForm({ organization }: { organization: OrganizationView }) {
  const [name, setName] = useState(organization.name);
  const [domains, setDomains] = useState(organization.invitationDomains.join('\n'));
  const [maxTokenDays, setMaxTokenDays] = useState(String(organization.maxTokenDays));
  const [idleMinutes, setIdleMinutes] = useState(organization.idleSessionMinutes === null ? '' : String(organization.idleSessionMinutes));
  const [problems, setProblems] = useState<Problems>({});
  const [update, { isLoading }] = useUpdateOrganizationMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (maxTokenDays.trim() === '') return setProblems({ maxTokenDays: 'maxTokenDays: is required' });
    setProblems({});
    try {
      await update({
        id: organization.id,
        name,
        invitationDomains: domains.split(/[\s,]+/).filter(Boolean),
        maxTokenDays: Number(maxTokenDays),
        idleSessionMinutes: idleMinutes.trim() === '' ? null : Number(idleMinutes),
      }).unwrap();
      toast({ title: 'Organisation Updated', description: 'The organisation settings were saved.' });
    } catch (error) {
      setProblems(problemsOf(apiErrorMessage(error) ?? 'Failed to update the organisation.'));
    }
  };

  const field = (key: Field) => ({
    'aria-invalid': problems[key] ? true : undefined,
    'aria-describedby': problems[key] ? `organization-${key}-problem` : undefined,
  });
  const problem = (key: Field) =>
    problems[key] ? (
      <Problem id={`organization-${key}-problem`} role="alert">
        {problems[key]}
      </Problem>
    ) : null;

  return (
    <Form onSubmit={submit} aria-label="Organisation settings" noValidate>
      <Fieldset disabled={isLoading}>
        <Field>
          <FieldLabel>
            Name
            <TextInput value={name} onChange={(event) => setName(event.target.value)} {...field('name')} />
          </FieldLabel>
          {problem('name')}
        </Field>
        <Field>
          <FieldLabel>
            Invitation domains
            <Hint>One per line. Invitations may only go to addresses at these domains; leave empty to allow any.</Hint>
            <TextArea value={domains} onChange={(event) => setDomains(event.target.value)} {...field('invitationDomains')} />
          </FieldLabel>
          {problem('invitationDomains')}
        </Field>
        <Field>
          <FieldLabel>
            Longest access token lifetime (days)
            <TextInput
              type="number"
              value={maxTokenDays}
              onChange={(event) => setMaxTokenDays(event.target.value)}
              {...field('maxTokenDays')}
            />
          </FieldLabel>
          {problem('maxTokenDays')}
        </Field>
        <Field>
          <FieldLabel>
            Idle session limit (minutes)
            <Hint>Sessions without a request for this long are signed out; leave empty for no limit.</Hint>
            <TextInput
              type="number"
              value={idleMinutes}
              onChange={(event) => setIdleMinutes(event.target.value)}
              {...field('idleSessionMinutes')}
            />
          </FieldLabel>
          {problem('idleSessionMinutes')}
        </Field>
        {problems.form ? <Problem role="alert">{problems.form}</Problem> : null}
        <div>
          <Button type="submit">{isLoading ? 'Saving...' : 'Save'}</Button>
        </div>
      </Fieldset>
    </Form>
  );
}

/** The organisation's settings, for holders of organization_admin. */
export function OrganizationSettings() {
  const { data, isError, error } = useGetOrganizationsQuery();
  const organization = data?.[0];
  return (
    <Card>
      <SectionTitle>Organisation</SectionTitle>
      {organization ? (
        <SettingsForm key={organization.id} organization={organization} />
      ) : isError ? (
        <Muted role="alert">The organisation could not be loaded. {apiErrorMessage(error) ?? ''}</Muted>
      ) : (
        <Muted role="status">Loading organisation…</Muted>
      )}
    </Card>
  );
}
