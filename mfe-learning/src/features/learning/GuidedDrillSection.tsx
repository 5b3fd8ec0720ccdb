import { lazy, Suspense } from 'react';
import type { AuthUser } from '@cbh/contracts';
import { Muted } from '@cbh/ui';
import { Section } from './Section';

// The steps, their words and the live breaker come in their own chunk: the landing's first load stays as it was.
const GuidedDrill = lazy(() => import('./GuidedDrill').then((module) => ({ default: module.GuidedDrill })));

/**
 * "Guided drill": inject latency into the demo's adaptive breaker, watch it open, stop, watch it recover. The heading
 * is drawn at once, so the page does not move when the steps arrive.
 */
export function GuidedDrillSection({ user }: { user: AuthUser | null }) {
  return (
    <Section
      id="guided-drill"
      title="Guided drill"
      intro="Slow the demo's Inventory Service down, watch its adaptive breaker open, stop the fault, and watch it recover."
    >
      <Suspense fallback={<Muted role="status">Loading the guided drill…</Muted>}>
        <GuidedDrill user={user} />
      </Suspense>
    </Section>
  );
}
