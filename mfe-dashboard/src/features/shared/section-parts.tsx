import type { ReactNode } from 'react';
import styled from 'styled-components';
import { apiErrorMessage } from '@cbh/api-client';
import { Button, Card, Muted, SectionTitle } from '@cbh/ui';

/**
 * How often lists whose rows change by themselves (a channel's last delivery, the log, a scrape target's last scrape)
 * are read again while their page is open, so outcomes appear without a reload.
 */
export const POLL_MS = 3000;

const Header = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  margin-bottom: 8px;
  h2 {
    margin: 0;
  }
`;

const Description = styled(Muted)`
  margin-bottom: 16px;
  font-size: 14px;
`;

/** One of the page's cards: a region named by its title, with its main action beside the title. */
export function Section({
  id,
  title,
  description,
  action,
  children,
}: {
  id: string;
  title: string;
  description: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card aria-labelledby={id}>
      <Header>
        <SectionTitle id={id}>{title}</SectionTitle>
        {action}
      </Header>
      <Description>{description}</Description>
      {children}
    </Card>
  );
}

export interface ListQuery<T> {
  data?: T;
  isError: boolean;
  error?: unknown;
}

/** A list once it is read; while it loads, or when it could not be read, says so instead of showing it empty. */
export function LoadedList<T>({ query, what, children }: { query: ListQuery<T>; what: string; children: (data: T) => ReactNode }) {
  // an error first: RTK Query keeps the last data when a refetch fails, and it would be shown as current
  if (query.isError)
    return (
      <Muted role="alert">
        The {what} could not be loaded. {apiErrorMessage(query.error) ?? ''}
      </Muted>
    );
  if (query.data === undefined) return <Muted role="status">Loading {what}…</Muted>;
  return <>{children(query.data)}</>;
}

/** A row's buttons, wrapping on a narrow column. */
export const RowActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px;
`;

const Pager = styled(RowActions)`
  justify-content: flex-end;
  margin-top: 12px;
`;

/**
 * Under a list read newest first a page at a time: Newest goes back to the first page, Older to the page below `next`
 * (the page's `nextBefore`, null on the last page).
 */
export function NewestOlderPager<Cursor extends string | number>({
  before,
  next,
  onPage,
}: {
  before: Cursor | undefined;
  next: Cursor | null | undefined;
  onPage: (before: Cursor | undefined) => void;
}) {
  return (
    <Pager>
      <Button $variant="outline" disabled={before === undefined} onClick={() => onPage(undefined)}>
        Newest
      </Button>
      <Button $variant="outline" disabled={!next} onClick={() => onPage(next ?? undefined)}>
        Older
      </Button>
    </Pager>
  );
}
