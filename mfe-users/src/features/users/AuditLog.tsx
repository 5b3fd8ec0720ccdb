import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useGetAuditQuery, useGetAuthUserQuery } from '@cbh/api-client';
import { auditActorText, hasPermission, type AuditEntryView } from '@cbh/contracts';
import { Button, Card, DataTable, FieldLabel, formatDateTime, Muted, SectionTitle, TextInput, WrapRow } from '@cbh/ui';

const AUDIT_COLUMNS = ['Time', 'Actor', 'Action', 'Target', 'Request id'];

export const AUDIT_PAGE_SIZE = 20;

const Filters = styled.form`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(210px, 100%), 1fr));
  gap: 12px;
  align-items: end;
  margin-bottom: 16px;
  input {
    /* date-time inputs are wider than a column by default and would spill into the next one */
    width: 100%;
    min-width: 0;
  }
`;

const Pager = styled(WrapRow)`
  justify-content: flex-end;
  margin-top: 12px;
`;

const Code = styled.code`
  font-size: 12px;
  word-break: break-all;
`;

/** An action name reads as one word: never broken inside. */
const ActionName = styled.code`
  font-size: 12px;
  white-space: nowrap;
`;

interface FilterValues {
  actor: string;
  action: string;
  from: string;
  to: string;
}
const NO_FILTERS: FilterValues = { actor: '', action: '', from: '', to: '' };

/** A datetime-local value is the user's local time without a zone; the API wants an ISO instant. */
export function localToIso(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function newestFirst(entries: readonly AuditEntryView[]): AuditEntryView[] {
  return [...entries].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

/** The audit trail of account changes, filtered by who, what and when, a page at a time. */
export function AuditLog() {
  const [draft, setDraft] = useState<FilterValues>(NO_FILTERS);
  const [applied, setApplied] = useState<FilterValues>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const { data: me } = useGetAuthUserQuery();
  const allowed = hasPermission(me, 'audit_access');
  const audit = useGetAuditQuery(
    {
      actor: applied.actor.trim() || undefined,
      action: applied.action.trim() || undefined,
      from: localToIso(applied.from),
      to: localToIso(applied.to),
      page,
      pageSize: AUDIT_PAGE_SIZE,
    },
    // the trail is readable with audit_access only; without it, ask nothing
    { skip: !allowed },
  );
  const totalPages = Math.max(1, Math.ceil((audit.data?.total ?? 0) / AUDIT_PAGE_SIZE));

  // filters apply on request, not per keystroke, so typing an e-mail does not fire a query per letter
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setApplied(draft);
    setPage(1);
  };
  const clear = () => {
    setDraft(NO_FILTERS);
    setApplied(NO_FILTERS);
    setPage(1);
  };
  const field = (name: keyof FilterValues) => ({
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft((current) => ({ ...current, [name]: event.target.value })),
  });

  if (!allowed) return <Muted>You need the audit_access permission to read the audit log.</Muted>;

  return (
    <Card>
      <SectionTitle>Audit Log</SectionTitle>
      <Filters onSubmit={apply} aria-label="Audit filters">
        <FieldLabel>
          Actor e-mail
          <TextInput type="text" inputMode="email" placeholder="name@example.com" {...field('actor')} />
        </FieldLabel>
        <FieldLabel>
          Action
          <TextInput type="text" placeholder="user.invite" {...field('action')} />
        </FieldLabel>
        <FieldLabel>
          From
          <TextInput type="datetime-local" {...field('from')} />
        </FieldLabel>
        <FieldLabel>
          To
          <TextInput type="datetime-local" {...field('to')} />
        </FieldLabel>
        <WrapRow>
          <Button type="submit">Apply filters</Button>
          <Button type="button" $variant="outline" onClick={clear}>
            Clear
          </Button>
        </WrapRow>
      </Filters>

      {audit.isError ? (
        <Muted role="alert">The audit log could not be loaded. {apiErrorMessage(audit.error) ?? ''}</Muted>
      ) : !audit.data ? (
        <Muted role="status">Loading audit entries…</Muted>
      ) : audit.data.entries.length === 0 ? (
        <Muted>No audit entries match these filters.</Muted>
      ) : (
        <DataTable label="Audit entries" minWidth={760} columns={AUDIT_COLUMNS}>
          {newestFirst(audit.data.entries).map((entry) => (
            <tr key={entry.id}>
              <td>
                <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
              </td>
              {/* entries without an actor were written by the system itself, e.g. a seed or a job; a change made with a
                  token says which ("root@example.com via token 'ci-export' (cbh_3fA9…)") */}
              <td>{entry.actorEmail || entry.via ? auditActorText(entry) : 'System'}</td>
              <td>
                <ActionName>{entry.action}</ActionName>
              </td>
              <td>{entry.targetType ? `${entry.targetType} ${entry.targetId ?? ''}`.trim() : '—'}</td>
              <td>{entry.requestId ? <Code>{entry.requestId}</Code> : '—'}</td>
            </tr>
          ))}
        </DataTable>
      )}

      <Pager>
        <Button $variant="outline" disabled={page <= 1} onClick={() => setPage((current) => current - 1)}>
          Previous
        </Button>
        <span aria-live="polite">
          Page {page} of {totalPages}
        </span>
        <Button $variant="outline" disabled={page >= totalPages} onClick={() => setPage((current) => current + 1)}>
          Next
        </Button>
      </Pager>
    </Card>
  );
}
