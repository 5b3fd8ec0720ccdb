import { decideAlerts, type RoundFindings } from './alert-rules';

const NOW = new Date('2026-11-23T12:00:00Z');
const inDays = (days: number) => new Date(NOW.getTime() + days * 86_400_000);
const quiet: RoundFindings = {
  domain: 'shop.example.test',
  now: NOW,
  failures: { count: 0, since: null },
  slow: { count: 0, since: null, lastMs: 80 },
};
const opened = (findings: Partial<RoundFindings>) =>
  decideAlerts({ ...quiet, ...findings }).open.map((alert) => [alert.alertType, alert.severity]);

describe('certificate expiry', () => {
  it('raises only the nearest threshold crossed: 21 days medium, 14 high, 7 critical', () => {
    const at = (days: number) => opened({ certificate: { status: 'active', expiresAt: inDays(days) } });
    expect(at(30)).toEqual([]);
    expect(at(20)).toEqual([['certificate_expiring', 'medium']]);
    expect(at(13)).toEqual([['certificate_expiring', 'high']]);
    expect(at(5)).toEqual([['certificate_expiring', 'critical']]);
  });

  it('keys each threshold to the certificate, so a renewed certificate can warn again and one threshold warns once', () => {
    const key = (days: number, ends: Date) =>
      decideAlerts({ ...quiet, now: new Date(ends.getTime() - days * 86_400_000), certificate: { status: 'active', expiresAt: ends } })
        .open[0]!.dedupeKey;
    const ends = inDays(40);
    expect(key(20, ends)).toBe(key(19, ends));
    expect(key(20, ends)).not.toBe(key(13, ends));
    expect(key(20, ends)).not.toBe(key(20, inDays(80)));
  });

  it('names the domain and the days left, and resolves expiry alerts once the certificate is far from its end', () => {
    const decisions = decideAlerts({ ...quiet, certificate: { status: 'active', expiresAt: inDays(5) } });
    expect(decisions.open[0]!.message).toBe('The TLS certificate of shop.example.test expires in 5 days (2026-11-28)');
    expect(decideAlerts({ ...quiet, certificate: { status: 'active', expiresAt: inDays(90) } }).resolve).toContain('certificate_expiring');
  });

  it('raises expired and invalid as critical, with the reason', () => {
    expect(opened({ certificate: { status: 'expired', expiresAt: inDays(-2) } })).toEqual([['certificate_expired', 'critical']]);
    const invalid = decideAlerts({ ...quiet, certificate: { status: 'invalid', expiresAt: inDays(60), reason: 'self-signed' } });
    expect(invalid.open.map((alert) => alert.message)).toEqual(['The TLS certificate of shop.example.test is not valid: self-signed']);
  });
});

describe('availability', () => {
  const since = new Date('2026-11-23T11:58:00Z');
  it('calls a site down after 3 failed checks in a row, one alert per outage, resolved by the next success', () => {
    expect(opened({ failures: { count: 2, since } })).toEqual([]);
    const down = decideAlerts({ ...quiet, failures: { count: 3, since } });
    expect(down.open.map((alert) => [alert.alertType, alert.severity])).toEqual([['site_down', 'critical']]);
    expect(decideAlerts({ ...quiet, failures: { count: 7, since } }).open[0]!.dedupeKey).toBe(down.open[0]!.dedupeKey);
    expect(decideAlerts(quiet).resolve).toContain('site_down');
  });

  it('flags 3 slow answers in a row as medium, and clears it with a fast one', () => {
    expect(opened({ slow: { count: 3, since, lastMs: 2400 } })).toEqual([['slow_response', 'medium']]);
    expect(opened({ slow: { count: 2, since, lastMs: 2400 } })).toEqual([]);
    expect(decideAlerts(quiet).resolve).toContain('slow_response');
  });
});

describe('ownership and registration', () => {
  it('raises a failed verification as high and resolves it once verified', () => {
    expect(opened({ verification: { status: 'failed', reason: 'no TXT record found' } })).toEqual([['verification_failed', 'high']]);
    expect(decideAlerts({ ...quiet, verification: { status: 'verified' } }).resolve).toContain('verification_failed');
  });

  it('warns 30 days before the registration ends', () => {
    expect(opened({ registrationExpiresAt: inDays(29) })).toEqual([['registration_expiring', 'high']]);
    expect(opened({ registrationExpiresAt: inDays(31) })).toEqual([]);
  });
});
