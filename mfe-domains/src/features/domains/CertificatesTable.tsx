import styled from 'styled-components';
import { apiErrorMessage, useSetCertificateAutoRenewMutation } from '@cbh/api-client';
import type { SslCertificateView } from '@cbh/contracts';
import { DataTable, toast, When } from '@cbh/ui';
import { Switch } from '@cbh/ui/overlays';
import { UNKNOWN } from './domain-display';
import { StatusBadge } from './StatusBadge';

const CERTIFICATE_COLUMNS = ['Domain', 'Type', 'Status', 'Issued', 'Expires', 'Auto Renew'];

const Toggle = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
`;

/** Only domain managers see this screen, so everyone here may change it. */
function AutoRenew({ certificate, domain }: { certificate: SslCertificateView; domain: string }) {
  const [update, { isLoading }] = useSetCertificateAutoRenewMutation();
  const word = certificate.autoRenew ? 'Enabled' : 'Disabled';
  const change = async (autoRenew: boolean) => {
    try {
      await update({ id: certificate.id, autoRenew }).unwrap();
      toast({ title: 'Auto Renew Updated', description: `Auto renew is ${autoRenew ? 'enabled' : 'disabled'} for ${domain}.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to update auto renew.', variant: 'destructive' });
    }
  };
  return (
    <Toggle>
      <Switch checked={certificate.autoRenew} onCheckedChange={change} disabled={isLoading} label={`Auto renew for ${domain}`} />
      <span>{word}</span>
    </Toggle>
  );
}

/** Every domain's TLS certificate as its last round read it. */
export function CertificatesTable({
  certificates,
  domainName,
}: {
  certificates: readonly SslCertificateView[];
  domainName: (domainId: number) => string;
}) {
  return (
    <DataTable
      label="SSL certificates"
      minWidth={760}
      columns={CERTIFICATE_COLUMNS}
      empty="No SSL certificates yet: a domain's certificate is read in its first round after it is verified."
    >
      {certificates.map((certificate) => (
        <tr key={certificate.id}>
          <td>{domainName(certificate.domainId)}</td>
          <td>{certificate.certificateType ?? UNKNOWN}</td>
          <td>
            <StatusBadge status={certificate.status} />
          </td>
          <td>
            <When at={certificate.issuedAt} />
          </td>
          <td>
            <When at={certificate.expiresAt} />
          </td>
          <td>
            <AutoRenew certificate={certificate} domain={domainName(certificate.domainId)} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
