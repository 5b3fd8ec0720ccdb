import { useState } from 'react';
import styled from 'styled-components';
import { useGetAlertGroupsQuery } from '@cbh/api-client';
import { ALERT_GROUP_STATE_LABELS, ALERT_GROUP_STATES, type AlertGroupState, type AuthUser } from '@cbh/contracts';
import { FieldLabel, Muted, Select } from '@cbh/ui';
import { LoadedList, NewestOlderPager, Section } from '../../shared/section-parts';
import { OPEN_STATES } from './alert-group-text';
import { AlertGroupTable } from './AlertGroupTable';

/** How many of each open state are read at once: more would be an incident of its own, and the filter pages through them. */
export const OPEN_SHOWN = 100;
/** A page of resolved groups (or of one state's, filtered). */
export const PAGE_SIZE = 25;

const Filter = styled.div`
  width: min(260px, 100%);
  margin-bottom: 16px;
  select {
    width: 100%;
  }
`;

const Stack = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 20px;
`;

const Note = styled(Muted)`
  margin-top: 8px;
  font-size: 13px;
`;

/**
 * The groups still open, what needs someone first: firing, then acknowledged, then silenced; each newest first. One
 * read per state, so that a crowd of acknowledged groups cannot push a firing one out of the list. A live
 * alertGroupChanged reads them again: no polling.
 */
function OpenGroups({ user }: { user: AuthUser }) {
  const firing = useGetAlertGroupsQuery({ state: 'firing', limit: OPEN_SHOWN });
  const acknowledged = useGetAlertGroupsQuery({ state: 'acknowledged', limit: OPEN_SHOWN });
  const silenced = useGetAlertGroupsQuery({ state: 'silenced', limit: OPEN_SHOWN });
  const reads = [firing, acknowledged, silenced];
  const failed = reads.find((read) => read.isError);
  const pages = reads.map((read) => read.data);
  const loaded = pages.every((page) => page !== undefined);
  const cut = OPEN_STATES.filter((_state, index) => pages[index]?.nextBefore);

  return (
    <Section
      id="open-groups-title"
      title="Open alert groups"
      description="Firing first, then those someone is on, then those silenced for a while; each newest first."
    >
      <LoadedList query={{ data: loaded ? pages : undefined, isError: Boolean(failed), error: failed?.error }} what="open alert groups">
        {() => (
          <>
            <AlertGroupTable
              label="Open alert groups"
              groups={pages.flatMap((page) => page?.items ?? [])}
              user={user}
              empty="No alert group is open: nothing is firing."
            />
            {cut.length > 0 ? (
              <Note>
                Only the newest {OPEN_SHOWN} of each state are shown; more are{' '}
                {cut.map((state) => ALERT_GROUP_STATE_LABELS[state].toLowerCase()).join(' and ')}: choose the state above to page through
                them all.
              </Note>
            ) : null}
          </>
        )}
      </LoadedList>
    </Section>
  );
}

/** The words of a paged list: the resolved groups below the open ones, or the one state chosen in the filter. */
function pagedWords(state: AlertGroupState | 'recent') {
  if (state === 'recent')
    return {
      title: 'Recently resolved',
      description: 'Groups closed by someone, or by their subject recovering; newest first.',
      empty: 'No alert group has been resolved yet.',
    };
  const label = ALERT_GROUP_STATE_LABELS[state];
  return { title: `${label} alert groups`, description: 'Newest first.', empty: `No alert group is ${label.toLowerCase()}.` };
}

/** One state's groups a page at a time, newest first, paged with the cursor each page gives. */
function PagedGroups({ state, user }: { state: AlertGroupState | 'recent'; user: AuthUser }) {
  // the cursor of the page shown: undefined for the newest
  const [before, setBefore] = useState<number | undefined>();
  const groups = useGetAlertGroupsQuery({ state: state === 'recent' ? 'resolved' : state, before, limit: PAGE_SIZE });
  const words = pagedWords(state);
  const id = `${state}-groups-title`;
  return (
    <Section id={id} title={words.title} description={words.description}>
      <LoadedList query={groups} what="alert groups">
        {(page) => (
          <>
            <AlertGroupTable
              label={words.title}
              groups={page.items}
              user={user}
              resolved={state === 'recent' || state === 'resolved'}
              empty={before === undefined ? words.empty : 'No older alert groups.'}
            />
            <NewestOlderPager before={before} next={page.nextBefore} onPage={setBefore} />
          </>
        )}
      </LoadedList>
    </Section>
  );
}

/**
 * The Alert groups tab: the open groups, then the recently resolved a page at a time; or, filtered, one state's groups
 * a page at a time. Keyed by the filter, so a new choice starts from the newest page.
 */
export function AlertGroupsPanel({ user }: { user: AuthUser }) {
  const [state, setState] = useState<AlertGroupState | ''>('');
  return (
    <>
      <Filter>
        <FieldLabel>
          State
          <Select value={state} onChange={(event) => setState(event.target.value as AlertGroupState | '')}>
            <option value="">Open, then recently resolved</option>
            {ALERT_GROUP_STATES.map((each) => (
              <option key={each} value={each}>
                {ALERT_GROUP_STATE_LABELS[each]}
              </option>
            ))}
          </Select>
        </FieldLabel>
      </Filter>
      {state === '' ? (
        <Stack>
          <OpenGroups user={user} />
          <PagedGroups key="recent" state="recent" user={user} />
        </Stack>
      ) : (
        <PagedGroups key={state} state={state} user={user} />
      )}
    </>
  );
}
