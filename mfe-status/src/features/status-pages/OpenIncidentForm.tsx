import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { failureText, useCreateIncidentMutation } from '@cbh/api-client';
import {
  COMPONENT_STATES,
  INCIDENT_IMPACTS,
  STATUS_PAGE_LIMITS,
  type ComponentState,
  type IncidentImpact,
  type StatusPageView,
} from '@cbh/contracts';
import {
  Card,
  FieldGroup,
  FieldRow,
  Fieldset,
  Form,
  FormField,
  Hint,
  SectionTitle,
  Select,
  TextArea,
  TextInput,
  toast,
  theme,
} from '@cbh/ui';
import { FormEnd, ListField } from './form-kit';
import { IMPACT_LABELS, stateLabel } from './status-text';

const L = STATUS_PAGE_LIMITS;

const ComponentRow = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 6px 12px;
  padding: 6px 0;
  border-bottom: 1px solid ${theme.colors.border};
  label {
    display: flex;
    align-items: center;
    gap: 8px;
    font-size: 14px;
    overflow-wrap: anywhere;
  }
`;

/** The state an incident sets a component to unless told otherwise. */
export const PREFILLED_STATE: ComponentState = 'partial_outage';

/**
 * Open an incident: its title and impact, the components it sets by hand (each to the state chosen, until it is
 * resolved), and its first message in Markdown. `prefill` ticks components at once (a breaker's page links here).
 */
export function OpenIncidentForm({ page, prefill, onDone }: { page: StatusPageView; prefill: readonly number[]; onDone: () => void }) {
  const [create, { isLoading }] = useCreateIncidentMutation();
  const [title, setTitle] = useState('');
  const [impact, setImpact] = useState<IncidentImpact>(prefill.length ? 'major' : 'minor');
  const [message, setMessage] = useState('');
  const [states, setStates] = useState<Map<number, ComponentState>>(
    () =>
      new Map(page.components.filter((component) => prefill.includes(component.id)).map((component) => [component.id, PREFILLED_STATE])),
  );
  const [tried, setTried] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const problems = {
    title: !title.trim()
      ? 'must not be empty'
      : title.length > L.incidentTitleLength
        ? `must be at most ${L.incidentTitleLength} characters`
        : undefined,
    message: !message.trim()
      ? 'must not be empty'
      : message.length > L.messageLength
        ? `must be at most ${L.messageLength} characters`
        : undefined,
  };
  const setState = (id: number, state: ComponentState | null) =>
    setStates((current) => {
      const next = new Map(current);
      if (state) next.set(id, state);
      else next.delete(id);
      return next;
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problems.title || problems.message) return;
    try {
      const incident = await create({
        pageId: page.id,
        title: title.trim(),
        impact,
        message: message.trim(),
        components: page.components
          .filter((component) => states.has(component.id))
          .map((component) => ({ id: component.id, state: states.get(component.id)! })),
      }).unwrap();
      toast({ title: 'Incident Opened', description: `${incident.title} is on ${page.title}.` });
      onDone();
    } catch (error) {
      setRefusal(failureText('The incident could not be opened.', error));
    }
  };

  return (
    <Card aria-labelledby="open-incident-title">
      <SectionTitle id="open-incident-title">Open incident</SectionTitle>
      <Form onSubmit={submit} aria-label="Open incident" noValidate>
        <Fieldset disabled={isLoading}>
          <FieldRow>
            <FormField label="Title" problem={tried ? problems.title : undefined}>
              {(described) => (
                <TextInput
                  value={title}
                  onChange={(event) => setTitle(event.target.value)}
                  placeholder="Payments are failing for some cards"
                  {...described}
                />
              )}
            </FormField>
            <ListField label="Impact" values={INCIDENT_IMPACTS} labels={IMPACT_LABELS} value={impact} onChange={setImpact} />
          </FieldRow>
          <FieldGroup>
            <legend>Affected components</legend>
            {page.components.length === 0 ? <Hint>The page has no components: the incident is a notice on the page.</Hint> : null}
            {page.components.map((component) => {
              const state = states.get(component.id);
              return (
                <ComponentRow key={component.id}>
                  <label>
                    <input
                      type="checkbox"
                      checked={state !== undefined}
                      onChange={(event) => setState(component.id, event.target.checked ? PREFILLED_STATE : null)}
                    />
                    {component.name}
                  </label>
                  {state ? (
                    <Select
                      aria-label={`State of ${component.name}`}
                      value={state}
                      onChange={(event) => setState(component.id, event.target.value as ComponentState)}
                    >
                      {COMPONENT_STATES.map((each) => (
                        <option key={each} value={each}>
                          {stateLabel(each)}
                        </option>
                      ))}
                    </Select>
                  ) : null}
                </ComponentRow>
              );
            })}
          </FieldGroup>
          <FormField
            label="Message"
            hint="Markdown: **bold**, lists, links. People read it on the page and in their e-mail."
            problem={tried ? problems.message : undefined}
          >
            {(described) => (
              <TextArea
                rows={5}
                value={message}
                onChange={(event) => setMessage(event.target.value)}
                placeholder="We are investigating failed card payments."
                {...described}
              />
            )}
          </FormField>
          <FormEnd refusal={refusal} submit={isLoading ? 'Opening...' : 'Open incident'} onCancel={onDone} />
        </Fieldset>
      </Form>
    </Card>
  );
}
