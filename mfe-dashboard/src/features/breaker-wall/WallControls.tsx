import styled from 'styled-components';
import { FieldLabel, NARROW_SCREEN, Select } from '@cbh/ui';
import { SOURCE_LABELS } from '../shared/breaker-origin';
import type { WallFilters } from './wall-view';

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px 16px;
  margin-bottom: 16px;
  /* a phone: two selects to a row, each as wide as its half, and the sort (the longest choices) a row of its own */
  ${NARROW_SCREEN} {
    display: grid;
    grid-template-columns: repeat(2, minmax(0, 1fr));
    > :first-child {
      grid-column: 1 / -1;
    }
  }
`;

const SORTS: Record<WallFilters['sort'], string> = { name: 'Name', errors: 'Error % (highest first)', state: 'State (open first)' };
const STATES: Record<WallFilters['state'], string> = { all: 'All', CLOSED: 'Closed', HALF_OPEN: 'Half-open', OPEN: 'Open' };
const TYPES: Record<WallFilters['type'], string> = { all: 'All', simple: 'simple', adaptive: 'adaptive', bulkhead: 'bulkhead' };
const SOURCES: Record<WallFilters['source'], string> = { all: 'All', ...SOURCE_LABELS };
/** The Service select's value for every breaker: a service's name is never empty. */
const ALL_SERVICES = '';

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

/**
 * Sort by name, error % or state; filter by state, by type, by where the breakers run (the hub, a service's agent, a
 * scrape) and by service, among `services`.
 */
export function WallControls({
  filters,
  services,
  onChange,
}: {
  filters: WallFilters;
  services: readonly string[];
  onChange: (filters: WallFilters) => void;
}) {
  // a chosen service whose breakers have since gone stays a choice, so the select still says what filters the wall
  const serviceChoices = filters.service === null || services.includes(filters.service) ? services : [...services, filters.service];
  return (
    <Row>
      <Choice label="Sort by" value={filters.sort} choices={SORTS} onChange={(sort) => onChange({ ...filters, sort })} />
      <Choice label="State" value={filters.state} choices={STATES} onChange={(state) => onChange({ ...filters, state })} />
      <Choice label="Type" value={filters.type} choices={TYPES} onChange={(type) => onChange({ ...filters, type })} />
      <Choice label="Source" value={filters.source} choices={SOURCES} onChange={(source) => onChange({ ...filters, source })} />
      <FieldLabel>
        Service
        <Select
          value={filters.service ?? ALL_SERVICES}
          onChange={(event) => onChange({ ...filters, service: event.target.value === ALL_SERVICES ? null : event.target.value })}
        >
          <option value={ALL_SERVICES}>All</option>
          {serviceChoices.map((service) => (
            <option key={service} value={service}>
              {service}
            </option>
          ))}
        </Select>
      </FieldLabel>
    </Row>
  );
}
