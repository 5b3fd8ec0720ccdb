import type { ReactNode } from 'react';
import { apiErrorMessage } from '@cbh/api-client';
import { Muted } from '@cbh/ui';

interface ListQuery<T> {
  data?: readonly T[];
  isError: boolean;
  error?: unknown;
}

/** A list once it is read; while it loads, or when it could not be read, says so instead of showing it empty. */
export function LoadedList<T>({
  query,
  what,
  children,
}: {
  query: ListQuery<T>;
  what: string;
  children: (rows: readonly T[]) => ReactNode;
}) {
  // an error first: RTK Query keeps the last rows when a refetch fails, and they would be shown as current
  if (query.isError)
    return (
      <Muted role="alert">
        The {what} could not be loaded. {apiErrorMessage(query.error) ?? ''}
      </Muted>
    );
  if (!query.data) return <Muted role="status">Loading {what}…</Muted>;
  return <>{children(query.data)}</>;
}
