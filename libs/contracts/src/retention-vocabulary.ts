// No schema library here: the System tab imports these words, and a module with schemas would bring one along.

/*
 * Data retention: how many days each kind of history is kept before the daily prune deletes it. One row in the
 * database holds the settings, so every replica prunes by the same numbers.
 */

/** The settings, in the order the System tab shows them. */
export const RETENTION_SETTINGS = ['auditDays', 'checkResultDays', 'transitionDays', 'notificationDays'] as const;
export type RetentionSetting = (typeof RETENTION_SETTINGS)[number];

export type RetentionSettings = Record<RetentionSetting, number>;

/** A day at least (a shorter setting would delete what the screens are still showing), ten years at most. */
export const RETENTION_MIN_DAYS = 1;
export const RETENTION_MAX_DAYS = 3650;

/**
 * The audit trail is kept a quarter at least: a holder of system_admin alone must not be able to erase what they did
 * by setting a day and pruning. Lowering it at all also takes audit_access, the permission of those who read the trail.
 */
export const AUDIT_RETENTION_MIN_DAYS = 90;

/** The shortest each setting may be. */
export const RETENTION_SETTING_MIN_DAYS: Record<RetentionSetting, number> = {
  auditDays: AUDIT_RETENTION_MIN_DAYS,
  checkResultDays: RETENTION_MIN_DAYS,
  transitionDays: RETENTION_MIN_DAYS,
  notificationDays: RETENTION_MIN_DAYS,
};

/** A year of audit trail, a month of check results (the uptime percentage covers 30 days), a quarter of journal. */
export const RETENTION_DEFAULTS: RetentionSettings = {
  auditDays: 365,
  checkResultDays: 30,
  transitionDays: 90,
  notificationDays: 90,
};

export const RETENTION_SETTING_LABELS: Record<RetentionSetting, string> = {
  auditDays: 'Audit entries',
  checkResultDays: 'Check results',
  transitionDays: 'Breaker transitions',
  notificationDays: 'Delivered notifications',
};

/** What each setting covers, as the System tab explains it. */
export const RETENTION_SETTING_DESCRIPTIONS: Record<RetentionSetting, string> = {
  auditDays: 'The audit trail of sign-ins and changes: 90 days at least, and lowering it also needs audit_access.',
  checkResultDays: 'Per-second call counts of load tests and service tests, finished load tests, and per-minute domain uptime history.',
  transitionDays: 'The breakers’ state journal.',
  notificationDays: 'The notification delivery log (deliveries no longer waiting for a try) and the events behind it.',
};

/**
 * What a prune deletes, by kind: the four settings' tables, and what expired tokens leave behind (tokens
 * expired for more than TOKEN_PRUNE_AFTER_DAYS, and the rate limit's counts of minutes long past).
 */
export const PRUNED_KINDS = ['audit', 'checkResults', 'transitions', 'notifications', 'expiredTokens', 'tokenUsage'] as const;
export type PrunedKind = (typeof PRUNED_KINDS)[number];
export type PruneCounts = Record<PrunedKind, number>;

export const PRUNED_KIND_LABELS: Record<PrunedKind, string> = {
  audit: 'Audit entries',
  checkResults: 'Check results',
  transitions: 'Breaker transitions',
  notifications: 'Notification deliveries and events',
  expiredTokens: 'Expired access tokens',
  tokenUsage: 'Token usage counts',
};

/** An expired token stays listed (so its owner sees why a script stopped) this long, then the prune deletes it. */
export const TOKEN_PRUNE_AFTER_DAYS = 30;

/** GET and PATCH /api/system/retention: the settings, and when the last prune ran and what it removed. */
export interface RetentionView extends RetentionSettings {
  lastPrunedAt: string | null;
  /** Rows the last prune deleted, by kind; null before the first. */
  lastPruned: PruneCounts | null;
}

/** POST /api/system/retention/prune: when this prune finished and what it deleted. */
export interface PruneResultView {
  prunedAt: string;
  removed: PruneCounts;
}
