import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { failureText, usePostIncidentUpdateMutation } from '@cbh/api-client';
import { INCIDENT_STATUS_LABELS, INCIDENT_STATUSES, STATUS_PAGE_LIMITS, type IncidentStatus, type IncidentView } from '@cbh/contracts';
import { Badge, Button, Fieldset, Form, FormField, TextArea, theme, toast, When, WrapRow } from '@cbh/ui';
import { FormEnd, ListField } from './form-kit';
import { ComponentStateBadge } from './StateBadge';
import { IMPACT_LABELS } from './status-text';

const Article = styled.article`
  display: grid;
  gap: 12px;
  min-width: 0;
  padding: 16px;
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  background: ${theme.colors.surface};
  h3 {
    margin: 0;
    font-size: 16px;
    overflow-wrap: anywhere;
  }
`;
const Meta = styled.p`
  margin: 0;
  font-size: 13px;
  color: ${theme.colors.muted};
`;
const Timeline = styled.ol`
  display: grid;
  gap: 12px;
  margin: 0;
  padding: 0 0 0 14px;
  list-style: none;
  border-left: 2px solid ${theme.colors.border};
`;
const Message = styled.div`
  font-size: 14px;
  overflow-wrap: anywhere;
  p {
    margin: 4px 0;
  }
  pre {
    max-width: 100%;
    overflow-x: auto;
  }
`;

const IMPACT_COLORS = {
  none: theme.colors.grey,
  minor: theme.colors.yellow,
  major: theme.colors.orange,
  critical: theme.colors.open,
} as const;

/** The status an update most likely names next. */
const nextStatus = (status: IncidentStatus): IncidentStatus => INCIDENT_STATUSES[Math.min(INCIDENT_STATUSES.indexOf(status) + 1, 3)]!;

function PostUpdateForm({ incident, onDone }: { incident: IncidentView; onDone: () => void }) {
  const [post, { isLoading }] = usePostIncidentUpdateMutation();
  const [status, setStatus] = useState<IncidentStatus>(nextStatus(incident.status));
  const [message, setMessage] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const max = STATUS_PAGE_LIMITS.messageLength;
  const problem = message.length > max ? `must be at most ${max} characters` : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim() || problem) return;
    try {
      await post({ pageId: incident.pageId, incidentId: incident.id, status, message: message.trim() }).unwrap();
      toast({
        title: status === 'resolved' ? 'Incident Resolved' : 'Update Posted',
        description:
          status === 'resolved'
            ? `${incident.title} is resolved: its components follow their breakers again.`
            : `${incident.title}: ${INCIDENT_STATUS_LABELS[status]}.`,
      });
      onDone();
    } catch (error) {
      setRefusal(failureText('The update could not be posted.', error));
    }
  };

  return (
    <Form onSubmit={submit} aria-label={`Post update to ${incident.title}`} noValidate>
      <Fieldset disabled={isLoading}>
        <ListField
          label="Status"
          hint={status === 'resolved' ? 'Resolving gives its components back to their breakers and domains.' : undefined}
          values={INCIDENT_STATUSES}
          labels={INCIDENT_STATUS_LABELS}
          value={status}
          onChange={setStatus}
        />
        <FormField label="Message" hint="Markdown." problem={problem}>
          {(described) => <TextArea rows={4} value={message} onChange={(event) => setMessage(event.target.value)} {...described} />}
        </FormField>
        <FormEnd
          refusal={refusal}
          submit={isLoading ? 'Posting...' : status === 'resolved' ? 'Resolve' : 'Post update'}
          disabled={!message.trim() || Boolean(problem)}
          onCancel={onDone}
        />
      </Fieldset>
    </Form>
  );
}

/**
 * One incident: its impact and status, the components it sets, and its timeline newest first (each update's message as
 * the server rendered and sanitised it). An open one offers Post update.
 */
export function IncidentCard({ incident }: { incident: IncidentView }) {
  const [posting, setPosting] = useState(false);
  const open = incident.resolvedAt === null;
  const titleId = `incident-${incident.id}-title`;
  return (
    <Article aria-labelledby={titleId} data-testid={`incident-${incident.id}`}>
      <WrapRow>
        <h3 id={titleId}>{incident.title}</h3>
        <Badge $color={IMPACT_COLORS[incident.impact]}>Impact: {IMPACT_LABELS[incident.impact]}</Badge>
        <Badge $color={open ? theme.colors.primary : theme.colors.success}>{INCIDENT_STATUS_LABELS[incident.status]}</Badge>
      </WrapRow>
      <Meta>
        Opened <When at={incident.createdAt} />
        {incident.resolvedAt ? (
          <>
            {', resolved '}
            <When at={incident.resolvedAt} />
          </>
        ) : null}
      </Meta>
      {incident.components.length ? (
        <WrapRow aria-label="Components it sets" role="list">
          {incident.components.map((component) => (
            <span key={component.id} role="listitem">
              {component.name}: <ComponentStateBadge state={component.state} />
            </span>
          ))}
        </WrapRow>
      ) : null}
      <Timeline aria-label={`Updates of ${incident.title}`}>
        {[...incident.updates].reverse().map((update) => (
          <li key={update.id}>
            <Meta>
              <strong>{INCIDENT_STATUS_LABELS[update.status]}</strong> · <When at={update.createdAt} />
              {update.author ? ` · ${update.author}` : ''}
            </Meta>
            {/* the API renders the Markdown and sanitises it (no script, no handlers, http(s) and mailto links only) */}
            <Message dangerouslySetInnerHTML={{ __html: update.messageHtml }} />
          </li>
        ))}
      </Timeline>
      {open ? (
        posting ? (
          <PostUpdateForm incident={incident} onDone={() => setPosting(false)} />
        ) : (
          <div>
            <Button $variant="outline" onClick={() => setPosting(true)}>
              Post update
            </Button>
          </div>
        )
      ) : null}
    </Article>
  );
}
