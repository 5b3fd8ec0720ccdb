import { lazy, Suspense, type ReactNode } from 'react';
import { hasPermission, ROUTES, type AuthUser } from '@cbh/contracts';
import { Muted } from '@cbh/ui';
import { Tabs, type TabItem } from '@cbh/ui/overlays';
import { AlertGroupsPanel } from './groups/AlertGroupsPanel';
import { OnCallOnly } from './on-call-access';

// The policies' and schedules' forms are fetched when their tab is first opened: the page opens on the alert groups,
// which is what someone paged comes for.
const EscalationPoliciesPanel = lazy(() =>
  import('./policies/EscalationPoliciesPanel').then((module) => ({ default: module.EscalationPoliciesPanel })),
);
const SchedulesPanel = lazy(() => import('./schedules/SchedulesPanel').then((module) => ({ default: module.SchedulesPanel })));

const DESCRIPTION = 'Alert groups firing and acknowledged, live; who is told, step by step; and who is on call.';

const later = (content: ReactNode) => <Suspense fallback={<Muted role="status">Loading…</Muted>}>{content}</Suspense>;

/**
 * The tabs an account may read: the alert groups with circuit_breaker_view; the escalation policies and schedules,
 * which the API shows to holders of circuit_breaker_operate or circuit_breaker_admin only, for them alone (a tab
 * that could only say "not allowed" is left out).
 */
function tabsFor(user: AuthUser): TabItem[] {
  const tabs: TabItem[] = [{ value: 'groups', label: 'Alert groups', content: <AlertGroupsPanel user={user} /> }];
  if (hasPermission(user, 'circuit_breaker_operate') || hasPermission(user, 'circuit_breaker_admin')) {
    tabs.push(
      { value: 'policies', label: 'Escalation policies', content: later(<EscalationPoliciesPanel />) },
      { value: 'schedules', label: 'Schedules', content: later(<SchedulesPanel />) },
    );
  }
  return tabs;
}

/** /on-call: the alert groups, the escalation policies and the schedules, each a tab. */
export function OnCallPage() {
  return (
    <OnCallOnly title={ROUTES.onCall.title} description={DESCRIPTION}>
      {(user) => <Tabs label="On-call sections" tabs={tabsFor(user)} />}
    </OnCallOnly>
  );
}
