// No schema library here: the screens import these words, and a module with schemas would bring one along.

/*
 * Domain monitoring's vocabulary: what the domain screens, the API and its checks say to each other about a
 * domain, its ownership proof, TLS certificate, DNS records, uptime and alerts.
 */

/** pending until ownership is verified, then active while the site answers, else down; failed when verification failed. */
export const DOMAIN_STATUSES = ['pending', 'active', 'down', 'failed'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export const VERIFICATION_STATUSES = ['pending', 'verifying', 'verified', 'failed'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** A valid certificate is active however soon it ends: nearness to expiry is an alert, not a status. */
export const CERTIFICATE_STATUSES = ['active', 'expired', 'invalid', 'unreachable'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

export const MONITORING_TYPES = ['uptime'] as const;
export type MonitoringType = (typeof MONITORING_TYPES)[number];

export const UPTIME_STATUSES = ['up', 'down'] as const;
export type UptimeStatus = (typeof UPTIME_STATUSES)[number];

export const ALERT_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const ALERT_STATUSES = ['open', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** What an alert is about; the checks raise them and the screens may label them. */
export const DOMAIN_ALERT_TYPES = [
  'certificate_expiring',
  'certificate_expired',
  'certificate_invalid',
  'site_down',
  'slow_response',
  'verification_failed',
  'registration_expiring',
] as const;
export type DomainAlertType = (typeof DOMAIN_ALERT_TYPES)[number];

/** How the screens name each kind of alert. */
export const DOMAIN_ALERT_TYPE_LABELS: Record<DomainAlertType, string> = {
  certificate_expiring: 'Certificate expiring',
  certificate_expired: 'Certificate expired',
  certificate_invalid: 'Certificate invalid',
  site_down: 'Site down',
  slow_response: 'Slow response',
  verification_failed: 'Verification failed',
  registration_expiring: 'Registration expiring',
};

/** How many of a domain's latest uptime checks its detail view carries (a round every minute: the last hour). */
export const DOMAIN_RECENT_CHECKS = 60;

/** Ownership is proven by a TXT record at this name holding this value; both are shown to the owner. */
export const verificationRecordName = (domain: string) => `_cbhub-verify.${domain}`;
export const verificationRecordValue = (token: string) => `cbhub-verify=${token}`;
