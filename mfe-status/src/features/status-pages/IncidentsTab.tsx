import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useGetStatusIncidentsQuery } from '@cbh/api-client';
import { STATUS_PAGE_LIMITS, type StatusPageView } from '@cbh/contracts';
import { useSearchParams } from '@cbh/router';
import { Button, Card, Muted, SectionTitle, SpreadRow } from '@cbh/ui';
import { IncidentCard } from './IncidentCard';
import { OpenIncidentForm } from './OpenIncidentForm';

const Stack = styled.div`
  display: grid;
  gap: 16px;
  min-width: 0;
`;

const PAGE_SIZE = STATUS_PAGE_LIMITS.incidentsPerPage;

/** One page of the resolved history: the incidents before `before` (all, for the first). */
function ResolvedPage({ pageId, before, onLast }: { pageId: number; before?: number; onLast?: (last: number | null) => void }) {
  const incidents = useGetStatusIncidentsQuery({ pageId, state: 'resolved', limit: PAGE_SIZE, ...(before ? { before } : {}) });
  const data = incidents.data;
  // a full page says where the next one starts; a shorter one is the last
  const last = data ? (data.length === PAGE_SIZE ? data[data.length - 1]!.id : null) : undefined;
  useEffect(() => {
    if (last !== undefined) onLast?.(last);
  }, [last, onLast]);
  if (incidents.isError)
    return <Muted role="alert">The resolved incidents could not be loaded. {apiErrorMessage(incidents.error) ?? ''}</Muted>;
  if (!incidents.data) return <Muted role="status">Loading resolved incidents…</Muted>;
  if (incidents.data.length === 0 && !before) return <Muted>No resolved incidents yet.</Muted>;
  return (
    <>
      {incidents.data.map((incident) => (
        <IncidentCard key={incident.id} incident={incident} />
      ))}
    </>
  );
}

/** The resolved incidents, newest first, a page at a time (Load more asks for those before the last shown). */
function ResolvedHistory({ pageId }: { pageId: number }) {
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const [next, setNext] = useState<number | null>(null);
  return (
    <Card aria-labelledby="resolved-incidents-title">
      <SectionTitle id="resolved-incidents-title">Resolved</SectionTitle>
      <Stack>
        {cursors.map((before, index) => (
          <ResolvedPage
            key={before ?? 'first'}
            pageId={pageId}
            before={before}
            onLast={index === cursors.length - 1 ? setNext : undefined}
          />
        ))}
        {next !== null && !cursors.includes(next) ? (
          <div>
            <Button $variant="outline" onClick={() => setCursors((current) => [...current, next])}>
              Load more
            </Button>
          </div>
        ) : null}
      </Stack>
    </Card>
  );
}

/** Open incidents with their timelines and Post update, Open incident, and the resolved history. */
export function IncidentsTab({ page, prefill }: { page: StatusPageView; prefill: readonly number[] | null }) {
  const [search, setSearch] = useSearchParams();
  const [opening, setOpening] = useState(prefill !== null);
  const open = useGetStatusIncidentsQuery({ pageId: page.id, state: 'open', limit: 100 });

  const done = () => {
    setOpening(false);
    // the form's address (?incident=new&components=…) would open it again on a reload
    if (search.has('incident') || search.has('components')) setSearch({}, { replace: true });
  };

  return (
    <Stack>
      {opening ? <OpenIncidentForm page={page} prefill={prefill ?? []} onDone={done} /> : null}
      <Card aria-labelledby="open-incidents-title">
        <SpreadRow $below={12}>
          <SectionTitle id="open-incidents-title">Open incidents</SectionTitle>
          {opening ? null : <Button onClick={() => setOpening(true)}>Open incident</Button>}
        </SpreadRow>
        {open.isError ? (
          <Muted role="alert">The open incidents could not be loaded. {apiErrorMessage(open.error) ?? ''}</Muted>
        ) : !open.data ? (
          <Muted role="status">Loading open incidents…</Muted>
        ) : open.data.length === 0 ? (
          <Muted>No open incidents: the page shows what its breakers and domains say.</Muted>
        ) : (
          <Stack>
            {open.data.map((incident) => (
              <IncidentCard key={incident.id} incident={incident} />
            ))}
          </Stack>
        )}
      </Card>
      <ResolvedHistory pageId={page.id} />
    </Stack>
  );
}
