import { lazy, Suspense, useState } from 'react';
import styled from 'styled-components';
import { useGetDrillDefinitionsQuery } from '@cbh/api-client';
import type { DrillDefinitionView } from '@cbh/contracts';
import { Button, Card, Muted, SectionTitle } from '@cbh/ui';
import { definitionSteps } from './drill-text';

// the confirmation comes with the first Run: most visits read the drills
const RunSavedConfirm = lazy(() => import('./RunSavedConfirm').then((module) => ({ default: module.RunSavedConfirm })));

const List = styled.ul`
  list-style: none;
  margin: 12px 0 0;
  padding: 0;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 8px 16px;
    padding: 10px 0;
    border-top: 1px solid rgba(0, 0, 0, 0.08);
  }
  li > div {
    min-width: 0;
    overflow-wrap: anywhere;
  }
`;

/**
 * The drills the configuration document keeps (`drills:`), each run as it stands after a confirmation that says what
 * it will do. Nothing shows while there is none (or they cannot be read: the drills above still can).
 */
export function SavedDrills() {
  const saved = useGetDrillDefinitionsQuery();
  const [asking, setAsking] = useState<DrillDefinitionView | null>(null);
  if (!saved.data?.length) return null;
  return (
    <Card aria-labelledby="saved-drills-title">
      <SectionTitle id="saved-drills-title">Saved drills</SectionTitle>
      <Muted>Kept in the configuration document; each runs as it stands.</Muted>
      <List>
        {saved.data.map((drill) => (
          <li key={drill.id} data-testid={`saved-drill-${drill.id}`}>
            <div>
              <strong>{drill.name}</strong>
              <Muted>{definitionSteps(drill).join('; ')}</Muted>
            </div>
            <Button $variant="outline" onClick={() => setAsking(drill)} aria-label={`Run ${drill.name}`}>
              Run
            </Button>
          </li>
        ))}
      </List>
      <Suspense fallback={null}>{asking ? <RunSavedConfirm drill={asking} onClose={() => setAsking(null)} /> : null}</Suspense>
    </Card>
  );
}
