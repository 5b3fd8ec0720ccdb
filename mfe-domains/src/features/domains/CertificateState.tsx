import type { SslCertificateView } from '@cbh/contracts';
import { When } from '@cbh/ui';
import { certificateSummary } from './domain-display';

/** A certificate's state in words, its expiry as a moment ("Valid, expires in 9 months", the date on hover). */
export function CertificateState({
  certificate,
}: {
  certificate: Pick<SslCertificateView, 'status' | 'expiresAt' | 'reason'> | null | undefined;
}) {
  const summary = certificateSummary(certificate);
  if (summary.at === undefined) return <>{summary.text}</>;
  return (
    <>
      {summary.text} <When at={summary.at} never="at an unknown date" />
    </>
  );
}
