import { useId, useState } from 'react';
import { FieldBox, FieldDescription, FieldLabel, Select, TextInput, describedBy } from '@cbh/ui';
import { COMMON_TIME_ZONES, viewerTimeZone } from './time-zones';

const OTHER = '';

/**
 * A time zone picked from the common ones (and the reader's own), or typed: "Other…" opens a text field for any IANA
 * zone. Whether it is typed stays the field's own choice, so that typing "UTC" does not snap the field back to the list.
 */
export function TimeZoneField({ value, onChange, problem }: { value: string; onChange: (zone: string) => void; problem?: string }) {
  const id = useId();
  const zones = [...new Set([viewerTimeZone(), ...COMMON_TIME_ZONES])];
  const [typing, setTyping] = useState(() => !zones.includes(value));
  const hint = 'Rotations and overrides are wall-clock times of this zone; hand-overs stay put through daylight saving changes.';
  return (
    <FieldBox>
      <FieldLabel>
        Time zone
        <Select
          value={typing ? OTHER : value}
          onChange={(event) => {
            const other = event.target.value === OTHER;
            setTyping(other);
            if (!other) onChange(event.target.value);
          }}
          {...describedBy(id, hint, typing ? undefined : problem)}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replace(/_/g, ' ')}
            </option>
          ))}
          <option value={OTHER}>Other…</option>
        </Select>
      </FieldLabel>
      {typing ? (
        <FieldLabel>
          IANA time zone
          <TextInput
            value={value}
            onChange={(event) => onChange(event.target.value)}
            placeholder="America/Argentina/Buenos_Aires"
            autoComplete="off"
            spellCheck={false}
            {...describedBy(id, hint, problem)}
          />
        </FieldLabel>
      ) : null}
      <FieldDescription id={id} name="Time zone" hint={hint} problem={problem} />
    </FieldBox>
  );
}
