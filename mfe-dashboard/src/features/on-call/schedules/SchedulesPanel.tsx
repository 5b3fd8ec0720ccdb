import { Suspense, useState } from 'react';
import styled from 'styled-components';
import { useDeleteScheduleMutation, useGetAuthUserQuery, useGetSchedulesQuery } from '@cbh/api-client';
import { hasPermission, type ScheduleView } from '@cbh/contracts';
import { Button, Muted } from '@cbh/ui';
import { LoadedList, Section } from '../../shared/section-parts';
import { usePeople } from '../people/use-people';
import { ConfirmDelete, ScheduleDialog } from './lazy-dialogs';
import { ScheduleCard } from './ScheduleCard';
import { ShiftFeed } from './ShiftFeed';

const Column = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 24px;
  min-width: 0;
`;

const List = styled.div`
  display: grid;
  gap: 16px;
`;

type Editing = { kind: 'add' } | { kind: 'edit' | 'delete'; schedule: ScheduleView } | null;

const DESCRIPTION = 'Who is on call when. Escalation policies page whoever a schedule has on call at the time.';

/**
 * The "Schedules" tab of /on-call: each schedule with who is on call now and its next two weeks, and each reader's
 * own calendar of shifts. Holders of circuit_breaker_admin add, edit and delete schedules; circuit_breaker_operate
 * reads them.
 */
export function SchedulesPanel() {
  const { data: user } = useGetAuthUserQuery();
  if (!user) return null;
  const admin = hasPermission(user, 'circuit_breaker_admin');
  if (!admin && !hasPermission(user, 'circuit_breaker_operate'))
    return (
      <Section id="schedules-title" title="Schedules" description={DESCRIPTION}>
        <Muted>You need the circuit_breaker_operate or circuit_breaker_admin permission to see schedules.</Muted>
      </Section>
    );
  return <ScheduleList admin={admin} myEmail={user.email} />;
}

/** The schedules, for an account that may read them: the reads start only then. */
function ScheduleList({ admin, myEmail }: { admin: boolean; myEmail: string }) {
  const schedules = useGetSchedulesQuery();
  const people = usePeople((schedules.data ?? []).flatMap((schedule) => (schedule.onCallNow ? [schedule.onCallNow] : [])));
  const [remove] = useDeleteScheduleMutation();
  const [editing, setEditing] = useState<Editing>(null);
  const close = () => setEditing(null);
  const add = admin ? <Button onClick={() => setEditing({ kind: 'add' })}>Add schedule</Button> : null;

  return (
    <Column>
      <Section id="schedules-title" title="Schedules" description={DESCRIPTION} action={add}>
        <LoadedList query={schedules} what="schedules">
          {(list) =>
            list.length === 0 ? (
              <Muted>{admin ? 'No schedules yet.' : 'No schedules yet: holders of circuit_breaker_admin add them.'}</Muted>
            ) : (
              <List>
                {list.map((schedule) => (
                  <ScheduleCard
                    key={schedule.id}
                    schedule={schedule}
                    myEmail={myEmail}
                    editing={
                      admin
                        ? { edit: () => setEditing({ kind: 'edit', schedule }), delete: () => setEditing({ kind: 'delete', schedule }) }
                        : undefined
                    }
                  />
                ))}
              </List>
            )
          }
        </LoadedList>
      </Section>
      <ShiftFeed />
      <Suspense fallback={null}>
        {editing?.kind === 'add' ? <ScheduleDialog people={people} onClose={close} /> : null}
        {editing?.kind === 'edit' ? (
          <ScheduleDialog key={editing.schedule.id} schedule={editing.schedule} people={people} onClose={close} />
        ) : null}
        {editing?.kind === 'delete' ? (
          <ConfirmDelete
            what="schedule"
            name={editing.schedule.name}
            consequence="Its shifts leave everyone's calendars, and an escalation step that names it no longer reaches anyone through it."
            remove={() => remove(editing.schedule.id).unwrap()}
            onClose={close}
          />
        ) : null}
      </Suspense>
    </Column>
  );
}
