/**
 * Which alerts a round of checks opens and which it resolves, as a pure function of what the round found, so
 * every rule is testable without a network or a database. Opening is idempotent by dedupe key (the database
 * keeps one alert per key), which is what makes "each threshold once per certificate" hold across rounds and
 * replicas.
 */

import type { AlertSeverity as Severity, DomainAlertType as AlertType } from '@cbh/contracts';

export interface AlertToOpen {
  alertType: AlertType;
  severity: Severity;
  message: string;
  dedupeKey: string;
}

export interface RoundFindings {
  domain: string;
  now: Date;
  certificate?: { status: 'active' | 'expired' | 'invalid' | 'unreachable'; expiresAt: Date | null; reason?: string | null };
  /** Failed checks in a row including this one, and since when (the first of them). */
  failures: { count: number; since: Date | null };
  /** Checks slower than the slow limit in a row including this one, the last one's time, and since when. */
  slow: { count: number; since: Date | null; lastMs: number | null };
  verification?: { status: 'pending' | 'verifying' | 'verified' | 'failed'; reason?: string | null };
  registrationExpiresAt?: Date | null;
}

export interface AlertDecisions {
  open: AlertToOpen[];
  /** Alert types whose open alerts this round shows are over. */
  resolve: AlertType[];
}

const DAY_MS = 86_400_000;
/** Days before a certificate ends at which an alert is raised, nearest (most severe) first. */
export const CERTIFICATE_THRESHOLDS: readonly { days: number; severity: Severity }[] = [
  { days: 7, severity: 'critical' },
  { days: 14, severity: 'high' },
  { days: 21, severity: 'medium' },
];
export const DOWN_AFTER_FAILURES = 3;
export const SLOW_AFTER_CHECKS = 3;
export const SLOW_RESPONSE_MS = 2000;
export const REGISTRATION_WARNING_DAYS = 30;

const day = (date: Date) => date.toISOString().slice(0, 10);

export function decideAlerts(findings: RoundFindings): AlertDecisions {
  const { domain, now } = findings;
  const open: AlertToOpen[] = [];
  const resolve: AlertType[] = [];

  const certificate = findings.certificate;
  if (certificate) {
    const ends = certificate.expiresAt;
    if (certificate.status === 'active' && ends) {
      resolve.push('certificate_expired', 'certificate_invalid');
      const daysLeft = (ends.getTime() - now.getTime()) / DAY_MS;
      // only the nearest threshold already crossed: a first look at a certificate ending in 5 days says
      // "7 days", not also "14" and "21"
      const nearest = CERTIFICATE_THRESHOLDS.find((threshold) => daysLeft <= threshold.days);
      if (nearest) {
        open.push({
          alertType: 'certificate_expiring',
          severity: nearest.severity,
          message: `The TLS certificate of ${domain} expires in ${Math.max(0, Math.ceil(daysLeft))} days (${day(ends)})`,
          dedupeKey: `certificate-expiring-${nearest.days}:${ends.toISOString()}`,
        });
      } else {
        resolve.push('certificate_expiring');
      }
    } else if (certificate.status === 'expired') {
      resolve.push('certificate_expiring', 'certificate_invalid');
      open.push({
        alertType: 'certificate_expired',
        severity: 'critical',
        message: `The TLS certificate of ${domain} expired${ends ? ` on ${day(ends)}` : ''}`,
        dedupeKey: `certificate-expired:${ends?.toISOString() ?? 'unknown'}`,
      });
    } else if (certificate.status === 'invalid') {
      resolve.push('certificate_expiring', 'certificate_expired');
      open.push({
        alertType: 'certificate_invalid',
        severity: 'critical',
        message: `The TLS certificate of ${domain} is not valid: ${certificate.reason ?? 'unknown reason'}`,
        dedupeKey: `certificate-invalid:${ends?.toISOString() ?? 'unknown'}:${certificate.reason ?? ''}`,
      });
    }
  }

  if (findings.failures.count >= DOWN_AFTER_FAILURES && findings.failures.since) {
    open.push({
      alertType: 'site_down',
      severity: 'critical',
      message: `${domain} is down: ${findings.failures.count} checks in a row failed since ${findings.failures.since.toISOString()}`,
      dedupeKey: `site-down:${findings.failures.since.toISOString()}`,
    });
  } else if (findings.failures.count === 0) {
    resolve.push('site_down');
  }

  if (findings.slow.count >= SLOW_AFTER_CHECKS && findings.slow.since) {
    open.push({
      alertType: 'slow_response',
      severity: 'medium',
      message: `${domain} answers slowly: ${findings.slow.count} checks over ${SLOW_RESPONSE_MS} ms, the last in ${findings.slow.lastMs} ms`,
      dedupeKey: `slow-response:${findings.slow.since.toISOString()}`,
    });
  } else if (findings.slow.count === 0 && findings.failures.count === 0) {
    resolve.push('slow_response');
  }

  const verification = findings.verification;
  if (verification?.status === 'failed') {
    open.push({
      alertType: 'verification_failed',
      severity: 'high',
      message: `Ownership of ${domain} could not be verified: ${verification.reason ?? 'unknown reason'}`,
      dedupeKey: `verification-failed:${verification.reason ?? ''}`,
    });
  } else if (verification?.status === 'verified') {
    resolve.push('verification_failed');
  }

  const registration = findings.registrationExpiresAt;
  if (registration) {
    const daysLeft = (registration.getTime() - now.getTime()) / DAY_MS;
    if (daysLeft <= REGISTRATION_WARNING_DAYS) {
      open.push({
        alertType: 'registration_expiring',
        severity: 'high',
        message: `The registration of ${domain} expires in ${Math.max(0, Math.ceil(daysLeft))} days (${day(registration)})`,
        dedupeKey: `registration-expiring:${registration.toISOString()}`,
      });
    } else {
      resolve.push('registration_expiring');
    }
  }

  return { open, resolve };
}
