import { useId, useState } from 'react';
import styled from 'styled-components';
import { FieldGroup, Hint, TextInput, theme } from '@cbh/ui';

const Options = styled.ul`
  display: grid;
  gap: 2px;
  max-height: 200px;
  overflow-y: auto;
  margin: 0;
  padding: 6px;
  list-style: none;
  border: 1px solid ${theme.colors.border};
  border-radius: 6px;
  label {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 4px;
    font-size: 14px;
    overflow-wrap: anywhere;
  }
`;

export interface Member {
  id: number;
  name: string;
  /** after the name, muted: a breaker's service, a domain's status */
  detail?: string;
}

/**
 * Several of the hub's breakers or domains, ticked in a list that a filter box narrows. Ticked ones the list does
 * not hold (deleted since, or not readable) are kept and said so.
 */
export function MemberPicker({
  legend,
  members,
  value,
  onChange,
  unavailable,
}: {
  legend: string;
  /** undefined while they load */
  members: readonly Member[] | undefined;
  value: readonly number[];
  onChange: (ids: number[]) => void;
  /** said instead of the list when it cannot be read */
  unavailable?: string;
}) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const query = filter.trim().toLowerCase();
  const shown = (members ?? []).filter((member) => !query || `${member.name} ${member.detail ?? ''}`.toLowerCase().includes(query));
  const unknown = members ? value.filter((each) => !members.some((member) => member.id === each)) : [];
  const toggle = (memberId: number, on: boolean) => onChange(on ? [...value, memberId] : value.filter((each) => each !== memberId));

  return (
    <FieldGroup aria-describedby={`${id}-count`}>
      <legend>{legend}</legend>
      <Hint id={`${id}-count`}>
        {value.length} chosen{unknown.length ? ` (${unknown.length} no longer listed, kept until you untick them below)` : ''}
      </Hint>
      {members === undefined ? (
        <Hint role="status">{unavailable ?? `Loading ${legend.toLowerCase()}…`}</Hint>
      ) : (
        <>
          {members.length > 8 ? (
            <TextInput
              type="search"
              aria-label={`Filter ${legend.toLowerCase()}`}
              placeholder="Filter…"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
            />
          ) : null}
          <Options>
            {shown.map((member) => (
              <li key={member.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={value.includes(member.id)}
                    onChange={(event) => toggle(member.id, event.target.checked)}
                  />
                  {member.name}
                  {member.detail ? <Hint>{member.detail}</Hint> : null}
                </label>
              </li>
            ))}
            {unknown.map((memberId) => (
              <li key={`unknown-${memberId}`}>
                <label>
                  <input type="checkbox" checked onChange={() => toggle(memberId, false)} />#{memberId} (no longer listed)
                </label>
              </li>
            ))}
            {shown.length === 0 && unknown.length === 0 ? (
              <li>
                <Hint>{members.length === 0 ? `No ${legend.toLowerCase()} yet.` : 'None match the filter.'}</Hint>
              </li>
            ) : null}
          </Options>
        </>
      )}
    </FieldGroup>
  );
}
