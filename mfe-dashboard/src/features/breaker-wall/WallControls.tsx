import styled from 'styled-components';
import { FieldLabel, Select } from '@cbh/ui';
import type { WallFilters } from './wall-view';

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px 16px;
  margin-bottom: 16px;
`;

const SORTS: Record<WallFilters['sort'], string> = { name: 'Name', errors: 'Error % (highest first)', state: 'State (open first)' };
const STATES: Record<WallFilters['state'], string> = { all: 'All', CLOSED: 'Closed', HALF_OPEN: 'Half-open', OPEN: 'Open' };
const TYPES: Record<WallFilters['type'], string> = { all: 'All', simple: 'simple', adaptive: 'adaptive', bulkhead: 'bulkhead' };

/** One labelled native select over a fixed set of choices. */
function Choice<K extends string>({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: K;
  choices: Record<K, string>;
  onChange: (value: K) => void;
}) {
  return (
    <FieldLabel>
      {label}
      <Select value={value} onChange={(event) => onChange(event.target.value as K)}>
        {(Object.entries(choices) as [K, string][]).map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </Select>
    </FieldLabel>
  );
}

/** Sort by name, error % or state; filter by state and by type. */
export function WallControls({ filters, onChange }: { filters: WallFilters; onChange: (filters: WallFilters) => void }) {
  return (
    <Row>
      <Choice label="Sort by" value={filters.sort} choices={SORTS} onChange={(sort) => onChange({ ...filters, sort })} />
      <Choice label="State" value={filters.state} choices={STATES} onChange={(state) => onChange({ ...filters, state })} />
      <Choice label="Type" value={filters.type} choices={TYPES} onChange={(type) => onChange({ ...filters, type })} />
    </Row>
  );
}
