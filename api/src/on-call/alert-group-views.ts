import type { AlertGroupEntryView, AlertGroupView } from '@cbh/contracts';
import type { AlertGroupEntryEntity } from './entities/alert-group-entry.entity';
import type { AlertGroupEntity } from './entities/alert-group.entity';
import type { EscalationPolicyEntity } from './entities/escalation-policy.entity';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function groupView(group: AlertGroupEntity, policy: EscalationPolicyEntity | null | undefined): AlertGroupView {
  const total = policy ? policy.steps.length * (policy.repeat + 1) : 0;
  const escalating = (group.state === 'firing' || group.state === 'silenced') && group.nextStepAt !== null && group.nextStep < total;
  return {
    id: group.id,
    state: group.state,
    subject: { kind: group.subjectKind, id: group.subjectId, name: group.subjectName },
    service: group.service,
    title: group.title,
    escalationPolicy: policy ? { id: policy.id, name: policy.name } : null,
    openedAt: group.openedAt.toISOString(),
    acknowledgedAt: iso(group.acknowledgedAt),
    acknowledgedBy: group.acknowledgedBy,
    resolvedAt: iso(group.resolvedAt),
    resolvedBy: group.resolvedBy,
    silencedUntil: iso(group.silencedUntil),
    // a silenced group starts again from its first step when the silence ends
    nextStep: escalating ? { step: group.state === 'silenced' ? 1 : group.nextStep + 1, at: group.nextStepAt!.toISOString() } : null,
    eventCount: group.eventCount,
    causedCount: group.causedCount,
  };
}

export function entryView(entry: AlertGroupEntryEntity): AlertGroupEntryView {
  return {
    id: String(entry.id),
    at: entry.at.toISOString(),
    kind: entry.kind,
    text: entry.text,
    eventType: entry.eventType,
    step: entry.step,
    actor: entry.actor,
    subject: entry.subject,
  };
}
