import { useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, skipToken, useGetAuthUserQuery, useGetBreakersQuery } from '@cbh/api-client';
import { IMPORT_KIND_LABELS, IMPORT_KINDS, type SampleDataItem } from '@cbh/contracts';
import { Button, Card, Muted, plural, SpreadRow, toast } from '@cbh/ui';
import { ConfirmDialog, OnceOpened } from '../breaker-detail/lazy-dialogs';
import { useLoadSampleDataMutation, useRemoveSampleDataMutation, useSampleDataQuery } from './sample-data-api';

export const OFFER_TITLE = 'Try the hub with sample data';
export const OFFER_TEXT =
  'Six breakers with some history, two services, a domain and a notification rule that writes to the log. Remove it in one click when you are done.';

const Offer = styled(Card)`
  display: grid;
  justify-items: start;
  gap: 12px;
  margin-bottom: 24px;
  h2 {
    margin: 0;
    font-size: 18px;
  }
`;

const Loaded = styled(Card)`
  padding: 12px 20px;
  margin-bottom: 24px;
`;

/** What the sample added, a line per kind: "6 breakers: Checkout API, Email Relay, …". */
export function itemsByKind(items: readonly SampleDataItem[]): string[] {
  return IMPORT_KINDS.flatMap((kind) => {
    const names = items.filter((item) => item.kind === kind).map((item) => item.name);
    return names.length === 0 ? [] : [`${plural(names.length, IMPORT_KIND_LABELS[kind])}: ${names.join(', ')}`];
  });
}

// the confirmation's description is a paragraph: its lines are spans shown as blocks
const Line = styled.span`
  display: block;
  margin: 4px 0 4px 12px;
`;

/** The card that offers the sample data on an empty hub. */
function LoadOffer() {
  const [load, { isLoading }] = useLoadSampleDataMutation();
  const start = async () => {
    try {
      await load().unwrap();
      toast({ title: 'Sample data loaded' });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'The sample data could not be loaded.', variant: 'destructive' });
    }
  };
  return (
    <Offer aria-labelledby="sample-data-offer">
      <h2 id="sample-data-offer">{OFFER_TITLE}</h2>
      <Muted>{OFFER_TEXT}</Muted>
      <Button onClick={start} disabled={isLoading}>
        {isLoading ? 'Loading…' : 'Load sample data'}
      </Button>
    </Offer>
  );
}

/** The line that says the sample data is loaded, and removes it after a confirmation naming what goes. */
function LoadedLine({ items }: { items: readonly SampleDataItem[] }) {
  const [confirming, setConfirming] = useState(false);
  const [remove, { isLoading }] = useRemoveSampleDataMutation();
  const confirm = async () => {
    try {
      await remove().unwrap();
      toast({ title: 'Sample data removed' });
    } catch (error) {
      // a 409 names what could not go yet; the rest is gone, and the line shows what is left
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'The sample data could not be removed.', variant: 'destructive' });
    }
    setConfirming(false);
  };
  return (
    <Loaded aria-label="Sample data">
      <SpreadRow>
        <span>Sample data is loaded ({plural(items.length, 'item')}).</span>
        <Button $variant="outline" onClick={() => setConfirming(true)}>
          Remove sample data
        </Button>
      </SpreadRow>
      <OnceOpened open={confirming}>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title="Remove sample data?"
          description={
            <>
              This removes exactly what the sample data added, and nothing else:
              {itemsByKind(items).map((line) => (
                <Line key={line}>{line}</Line>
              ))}
              Anything else on the hub stays as it is.
            </>
          }
          confirmLabel="Remove"
          pendingLabel="Removing…"
          pending={isLoading}
          onConfirm={confirm}
        />
      </OnceOpened>
    </Loaded>
  );
}

/** Which part a page shows: the offer (on an empty hub), the loaded line, or either as it applies. */
export type SampleDataPart = 'offer' | 'loaded' | 'both';

/**
 * Sample data for a super admin trying the hub out: on an empty hub, a card that loads it; once loaded, a line that
 * removes it. Nothing for anyone else, nor where the hub refuses it (production). The API is asked only for a super
 * admin; the breakers list it checks for emptiness is the wall's own cache entry.
 */
export function SampleDataOffer({ part = 'both' }: { part?: SampleDataPart }) {
  const { data: user } = useGetAuthUserQuery();
  const superAdmin = user?.role === 'super_admin';
  const { data: view } = useSampleDataQuery(superAdmin ? undefined : skipToken);
  const offerable = superAdmin && part !== 'loaded' && view !== undefined && !view.loaded && view.refused === null;
  const { data: breakers } = useGetBreakersQuery(offerable ? undefined : skipToken);

  if (!superAdmin || !view || view.refused !== null) return null;
  if (view.loaded) return part === 'offer' ? null : <LoadedLine items={view.items} />;
  return offerable && breakers?.length === 0 ? <LoadOffer /> : null;
}
