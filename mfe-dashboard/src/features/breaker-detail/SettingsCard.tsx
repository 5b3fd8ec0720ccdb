import { Fragment, useState } from 'react';
import styled from 'styled-components';
import type { BreakerConfigView } from '@cbh/contracts';
import { Button, Card, Muted, SectionTitle, theme } from '@cbh/ui';
import { EditSettingsDialog, OnceOpened } from './lazy-dialogs';

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 6px 16px;
  margin: 0 0 16px;
  font-size: 14px;
  dt {
    color: ${theme.colors.muted};
  }
  dd {
    margin: 0;
    font-weight: 600;
  }
`;

const seconds = (ms: number) => `${ms / 1000} s`;

/** The settings each type adds to the four, where the breaker has them. */
function typeSettings(breaker: BreakerConfigView): [string, string][] {
  const rows: [string, number | null, string][] = [
    ['Max concurrent calls', breaker.maxConcurrentCalls, ''],
    ['Max queue', breaker.maxQueue, ''],
    ['Minimum calls', breaker.minimumCalls, ''],
    ['Slow call duration', breaker.slowCallDuration, ' ms'],
  ];
  return rows.flatMap(([label, value, unit]): [string, string][] => (value === null ? [] : [[label, `${value}${unit}`]]));
}

/** The four settings (and the type's own), read-only; circuit_breaker_admin holders edit the four with the sliders. */
export function SettingsCard({ breaker, canAdminister }: { breaker: BreakerConfigView; canAdminister: boolean }) {
  const [editing, setEditing] = useState(false);
  const rows: [string, string][] = [
    ['Failure threshold', String(breaker.failureThreshold)],
    ['Timeout', seconds(breaker.timeout)],
    ['Recovery time', seconds(breaker.recoveryTime)],
    ['Success threshold', String(breaker.successThreshold)],
    ...typeSettings(breaker),
  ];
  return (
    <Card aria-labelledby="settings-title">
      <SectionTitle id="settings-title">Settings</SectionTitle>
      <Facts>
        {rows.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </Facts>
      {canAdminister ? (
        <Button onClick={() => setEditing(true)}>Edit</Button>
      ) : (
        <Muted style={{ fontSize: 13 }}>Changing settings needs the circuit_breaker_admin permission.</Muted>
      )}
      <OnceOpened open={editing}>{editing ? <EditSettingsDialog breaker={breaker} onClose={() => setEditing(false)} /> : null}</OnceOpened>
    </Card>
  );
}
