import styled from 'styled-components';
import {
  useDeleteEscalationPolicyMutation,
  useGetAuthUserQuery,
  useGetEscalationPoliciesQuery,
  useGetNotificationChannelsQuery,
  useGetSchedulesQuery,
} from '@cbh/api-client';
import { hasPermission, type ChannelView, type ScheduleView } from '@cbh/contracts';
import { Muted } from '@cbh/ui';
import { RecordsSection, RowButtons } from '../../shared/records-section';
import { Section } from '../../shared/section-parts';
import { usePeople } from '../people/use-people';
import { PolicyDialog } from './lazy-dialogs';
import { repeatText, stepLines, type TargetNames } from './policy-text';

const NO_CHANNELS: readonly ChannelView[] = [];
const NO_SCHEDULES: readonly ScheduleView[] = [];

const Lines = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  display: grid;
  gap: 4px;
`;

const TITLE = 'Escalation policies';
const DESCRIPTION = 'Who is told, step by step, while an alert group fires and no one acknowledges it. Notification rules name them.';

/**
 * The "Escalation policies" tab of /on-call: each policy's steps in a line each. Holders of circuit_breaker_admin
 * add, edit and delete them; circuit_breaker_operate reads them.
 */
export function EscalationPoliciesPanel() {
  const { data: user } = useGetAuthUserQuery();
  const admin = hasPermission(user, 'circuit_breaker_admin');
  const reader = admin || hasPermission(user, 'circuit_breaker_operate');
  if (!user) return null;
  if (!reader)
    return (
      <Section id="escalation-policies-title" title={TITLE} description={DESCRIPTION}>
        <Muted>You need the circuit_breaker_operate or circuit_breaker_admin permission to see escalation policies.</Muted>
      </Section>
    );
  return <PolicyList admin={admin} />;
}

/** The list, for an account that may read it: the reads start only then. */
function PolicyList({ admin }: { admin: boolean }) {
  const policies = useGetEscalationPoliciesQuery();
  // channels are listed to circuit_breaker_admin only: others read them counted
  const channels = useGetNotificationChannelsQuery(undefined, { skip: !admin });
  const schedules = useGetSchedulesQuery();
  const people = usePeople((schedules.data ?? []).flatMap((schedule) => (schedule.onCallNow ? [schedule.onCallNow] : [])));
  const [remove] = useDeleteEscalationPolicyMutation();

  const channelById = new Map((channels.data ?? []).map((channel) => [channel.id, channel]));
  const scheduleById = new Map((schedules.data ?? []).map((schedule) => [schedule.id, schedule.name]));
  const names: TargetNames = {
    channel: (id) => channelById.get(id),
    person: people.emailOf,
    schedule: (id) => scheduleById.get(id),
  };

  return (
    <RecordsSection
      id="escalation-policies-title"
      title={TITLE}
      description={DESCRIPTION}
      addLabel="Add escalation policy"
      readOnly={!admin}
      query={policies}
      what="escalation policies"
      empty={admin ? 'No escalation policies yet.' : 'No escalation policies yet: holders of circuit_breaker_admin add them.'}
      // named apart from the section around it (two landmarks of one name cannot be told apart)
      table={{
        label: 'Policies, step by step',
        minWidth: 640,
        columns: admin ? ['Name', 'Steps', 'Repeat', 'Actions'] : ['Name', 'Steps', 'Repeat'],
      }}
      row={(policy, editing) => (
        <tr data-testid={`policy-row-${policy.id}`}>
          <td>{policy.name}</td>
          <td>
            <Lines>
              {stepLines(policy, names).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </Lines>
          </td>
          <td>{repeatText(policy.repeat)}</td>
          {admin ? (
            <td>
              <RowButtons name={policy.name} onEdit={() => editing.edit(policy)} onDelete={() => editing.delete(policy)} />
            </td>
          ) : null}
        </tr>
      )}
      dialog={(policy, close) => (
        <PolicyDialog
          policy={policy}
          choices={{ channels: channels.data ?? NO_CHANNELS, schedules: schedules.data ?? NO_SCHEDULES, people }}
          onClose={close}
        />
      )}
      deletion={{
        what: 'escalation policy',
        consequence: () => 'A policy a notification rule names is kept: change the rule first.',
        remove: (policy) => remove(policy.id).unwrap(),
      }}
    />
  );
}
