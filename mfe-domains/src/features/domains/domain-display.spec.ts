import { theme } from '@cbh/ui';
import { certificateSummary, dnsProvider, domainNames, responseTimeText, severityColor, statusLook, uptimeText } from './domain-display';
import { CERTIFICATES, DNS_RECORDS, DOMAINS } from './test-kit';

it('colours and marks statuses as §4 says: verified and active green with a check, pending yellow with a clock, verifying blue spinning, failed and expired red with a cross, anything else grey', () => {
  expect(statusLook('verified')).toEqual({ color: theme.colors.success, icon: 'check' });
  expect(statusLook('active')).toEqual({ color: theme.colors.success, icon: 'check' });
  expect(statusLook('pending')).toEqual({ color: theme.colors.yellow, icon: 'clock' });
  expect(statusLook('verifying')).toEqual({ color: theme.colors.primary, icon: 'spinner' });
  expect(statusLook('failed')).toEqual({ color: theme.colors.destructive, icon: 'cross' });
  expect(statusLook('expired')).toEqual({ color: theme.colors.destructive, icon: 'cross' });
  for (const other of ['down', 'invalid', 'unreachable', 'open', 'resolved', 'up', null, undefined]) {
    expect(statusLook(other)).toEqual({ color: theme.colors.grey, icon: 'none' });
  }
});

it('colours severities: critical red, high orange, medium yellow, anything else blue', () => {
  expect(severityColor('critical')).toBe(theme.colors.destructive);
  expect(severityColor('high')).toBe(theme.colors.orange);
  expect(severityColor('medium')).toBe(theme.colors.yellow);
  expect(severityColor('low')).toBe(theme.colors.primary);
  expect(severityColor('whatever')).toBe(theme.colors.primary);
  expect(new Set([theme.colors.destructive, theme.colors.orange, theme.colors.yellow, theme.colors.primary]).size).toBe(4);
});

it("says 'Unknown' for a domain it does not know and 'N/A' for a missing response time or uptime", () => {
  const nameOf = domainNames(DOMAINS);
  expect(nameOf(1)).toBe('shop.example.test');
  expect(nameOf(99)).toBe('Unknown');
  expect(responseTimeText(null)).toBe('N/A');
  expect(responseTimeText(0)).toBe('0 ms');
  expect(responseTimeText(142)).toBe('142 ms');
  expect(uptimeText(null)).toBe('N/A');
  expect(uptimeText(0)).toBe('0%');
  expect(uptimeText(99.8765)).toBe('99.88%');
  expect(uptimeText(100)).toBe('100%');
});

it("names the DNS provider from the active NS records' own domain", () => {
  expect(dnsProvider(DNS_RECORDS)).toBe('dns-host.example');
  expect(
    dnsProvider([
      { recordType: 'NS', value: 'ns2.Other-Host.example.', isActive: true },
      { recordType: 'NS', value: 'ns1.other-host.example', isActive: true },
      { recordType: 'NS', value: 'a.gone.example', isActive: false },
      { recordType: 'NS', value: 'b.cloud.example', isActive: true },
    ]),
  ).toBe('cloud.example, other-host.example');
  expect(dnsProvider([{ recordType: 'NS', value: 'ns1.host.co.uk', isActive: true }])).toBe('host.co.uk');
  expect(dnsProvider([{ recordType: 'NS', value: 'a.ns.example.io', isActive: true }])).toBe('example.io');
  expect(dnsProvider([{ recordType: 'A', value: '192.0.2.1', isActive: true }])).toBe('Unknown');
});

it('sums a certificate up: valid and when it expires, expired and when, invalid or unreachable with the reason, or not read yet', () => {
  expect(certificateSummary(CERTIFICATES[0])).toEqual({ text: 'Valid, expires', at: CERTIFICATES[0]!.expiresAt });
  expect(certificateSummary(CERTIFICATES[1])).toEqual({ text: 'Expired', at: CERTIFICATES[1]!.expiresAt });
  expect(certificateSummary(CERTIFICATES[2])).toEqual({ text: 'Invalid: self-signed certificate' });
  expect(certificateSummary({ status: 'unreachable', reason: 'connection refused', expiresAt: null })).toEqual({
    text: 'Unreachable: connection refused',
  });
  expect(certificateSummary(null)).toEqual({ text: 'Not read yet' });
});
