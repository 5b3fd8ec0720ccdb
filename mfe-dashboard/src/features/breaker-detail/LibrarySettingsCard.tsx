import { Fragment, useState } from 'react';
import styled from 'styled-components';
import type { BreakerConfigView } from '@cbh/contracts';
import { Button, Card, Muted, SectionTitle } from '@cbh/ui';
import { termsAndValues } from '../shared/figure-styles';
import { numericSettings, settingText } from './library-settings';
import { LibrarySettingsDialog, OnceOpened } from './lazy-dialogs';

const Facts = styled.dl`
  display: grid;
  grid-template-columns: minmax(0, max-content) minmax(0, 1fr);
  gap: 6px 16px;
  margin: 12px 0 16px;
  font-size: 14px;
  overflow-wrap: anywhere;
  ${termsAndValues}
  dd {
    font-variant-numeric: tabular-nums;
  }
`;

const Note = styled(Muted)`
  font-size: 13px;
`;

/**
 * A service's breaker's settings in its library's words, in place of the hub's four: those the hub last set, else
 * those its instances last reported. circuit_breaker_admin holders change an agent's numeric ones; a scraped
 * breaker's are read-only, set in the service itself.
 */
export function LibrarySettingsCard({ breaker, canAdminister }: { breaker: BreakerConfigView; canAdminister: boolean }) {
  const [editing, setEditing] = useState(false);
  const rows = Object.entries(breaker.librarySettings ?? {});
  const editable = breaker.source === 'agent' && numericSettings(breaker.librarySettings).length > 0;
  return (
    <Card aria-labelledby="library-settings-title">
      <SectionTitle id="library-settings-title">Library settings</SectionTitle>
      {rows.length > 0 ? <Note>In {breaker.library ?? 'its library'}’s own words and units.</Note> : null}
      {rows.length > 0 ? (
        <Facts>
          {rows.map(([name, value]) => (
            <Fragment key={name}>
              <dt>{name}</dt>
              <dd>{settingText(value)}</dd>
            </Fragment>
          ))}
        </Facts>
      ) : breaker.source === 'agent' ? (
        <Muted style={{ margin: '12px 0 16px' }}>No settings reported yet.</Muted>
      ) : null}
      {breaker.source === 'scrape' ? (
        // a scrape reads resilience4j's metrics, which carry no settings
        <Note style={{ marginTop: 12 }}>
          {rows.length > 0 ? 'Read-only' : 'Its metrics carry none'}: set in {breaker.service} itself.
        </Note>
      ) : !editable ? null : canAdminister ? (
        <Button onClick={() => setEditing(true)}>Edit</Button>
      ) : (
        <Note>Changing settings needs the circuit_breaker_admin permission.</Note>
      )}
      <OnceOpened open={editing}>
        {editing ? <LibrarySettingsDialog breaker={breaker} onClose={() => setEditing(false)} /> : null}
      </OnceOpened>
    </Card>
  );
}
