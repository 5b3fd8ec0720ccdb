import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useGetAuditQuery, useGetAuthUserQuery } from '@cbh/api-client';
import { auditActorText, hasPermission, type AuditEntryView } from '@cbh/contracts';
import { Button, Card, FieldLabel, Muted, ResponsiveTable, SectionTitle, TextInput, theme, When, WrapRow, type TableColumn } from '@cbh/ui';

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

const TargetType = styled.span`
  color: ${theme.colors.muted};
`;

/** What an entry changed: its kind, and its name where the hub can tell, else its id (the id on hover). */
function Target({ entry }: { entry: AuditEntryView }) {
  if (!entry.targetType) return <>—</>;
  return (
    <span title={entry.targetId ?? undefined}>
      <TargetType>{entry.targetType}</TargetType> {entry.targetName ?? entry.targetId ?? ''}
    </span>
  );
}

const AUDIT_COLUMNS: readonly TableColumn<AuditEntryView>[] = [
  { header: 'Time', cell: (entry) => <When at={entry.createdAt} />, nowrap: true },
  // entries without an actor were written by the system itself, e.g. a seed or a job; a change made with a token says
  // which ("root@example.com via token 'ci-export' (cbh_3fA9…)")
  { header: 'Actor', cell: (entry) => (entry.actorEmail || entry.via ? auditActorText(entry) : 'System') },
  { header: 'Action', cell: (entry) => <ActionName>{entry.action}</ActionName> },
  { header: 'Target', cell: (entry) => <Target entry={entry} />, priority: 2 },
  { header: 'Request id', cell: (entry) => (entry.requestId ? <Code>{entry.requestId}</Code> : '—'), priority: 3 },
];

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
        <ResponsiveTable
          label="Audit entries"
          rows={newestFirst(audit.data.entries)}
          rowKey={(entry) => entry.id}
          columns={AUDIT_COLUMNS}
          paging={{ page, pageSize: AUDIT_PAGE_SIZE, total: audit.data.total, onPage: setPage }}
        />
      )}
    </Card>
  );
}
