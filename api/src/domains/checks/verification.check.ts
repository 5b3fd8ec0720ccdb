import type { DnsResolver } from './dns-resolver';

export type VerificationFailure = 'no TXT record found' | 'value does not match' | 'DNS server unreachable';

export type VerificationResult = { status: 'verified' } | { status: 'failed'; reason: VerificationFailure; detail?: string };

/** The TXT record a domain owner publishes; a label of its own keeps it apart from SPF and other TXT records. */
export function verificationRecordName(domain: string): string {
  return `_cbhub-verify.${domain.replace(/\.$/, '').toLowerCase()}`;
}

export function verificationRecordValue(token: string): string {
  return `cbhub-verify=${token}`;
}

/**
 * Looks up the verification TXT record of a domain and compares it with the expected value. Any one of several
 * TXT records may carry it (an owner may leave an old token while adding a new one).
 */
export async function checkVerification(resolver: DnsResolver, domain: string, token: string): Promise<VerificationResult> {
  const lookup = await resolver.lookup(verificationRecordName(domain), 'TXT');
  if (lookup.outcome === 'unreachable') return { status: 'failed', reason: 'DNS server unreachable', detail: lookup.reason };
  if (lookup.outcome === 'none') return { status: 'failed', reason: 'no TXT record found' };
  const expected = verificationRecordValue(token);
  if (lookup.records.some((record) => record.value.trim() === expected)) return { status: 'verified' };
  return {
    status: 'failed',
    reason: 'value does not match',
    detail: `found ${lookup.records.map((record) => JSON.stringify(record.value)).join(', ')}`,
  };
}
