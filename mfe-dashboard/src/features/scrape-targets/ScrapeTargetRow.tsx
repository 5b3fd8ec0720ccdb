import styled from 'styled-components';
import { SECRET_SET_TEXT, type ScrapeTargetView } from '@cbh/contracts';
import { Muted, theme, When } from '@cbh/ui';
import { RowButtons } from '../shared/records-section';

const Url = styled.code`
  font-size: 13px;
  overflow-wrap: anywhere;
`;

/** A short cell that keeps to one line ('15 s', '••• set'). */
const Short = styled.td`
  white-space: nowrap;
`;

const Stack = styled.div`
  display: grid;
  gap: 4px;
`;

/** The last scrape's error, under its time; long ones wrap rather than widen the table. */
const ScrapeError = styled.p`
  margin: 0;
  max-width: 320px;
  font-size: 13px;
  overflow-wrap: anywhere;
  color: ${theme.colors.destructive};
`;

/** One target: where and how often it is read, how its last scrape went, and what it found. */
export function ScrapeTargetRow({ target, onEdit, onDelete }: { target: ScrapeTargetView; onEdit: () => void; onDelete: () => void }) {
  return (
    <tr data-testid={`scrape-target-${target.id}`}>
      <td>{target.name}</td>
      <td>
        <Url>{target.url}</Url>
      </td>
      <Short>{target.intervalSeconds} s</Short>
      <Short>{target.bearerTokenSet ? SECRET_SET_TEXT : <Muted>None</Muted>}</Short>
      <td>
        <Stack>
          {target.lastScrapeAt ? <When at={target.lastScrapeAt} /> : <Muted>Never</Muted>}
          {target.lastError ? <ScrapeError>Error: {target.lastError}</ScrapeError> : null}
        </Stack>
      </td>
      <td>{target.breakers ?? <Muted>—</Muted>}</td>
      <td>
        <RowButtons name={target.name} onEdit={onEdit} onDelete={onDelete} />
      </td>
    </tr>
  );
}
