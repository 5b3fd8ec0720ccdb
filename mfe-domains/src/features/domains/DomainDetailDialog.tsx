import { lazy, Suspense, useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useDeleteDomainMutation, useGetDomainQuery, useVerifyDomainMutation } from '@cbh/api-client';
import { DOMAIN_ALERT_TYPE_LABELS, type DomainDetailView } from '@cbh/contracts';
import { Button, CopyField, Muted, theme, toast, When, WrapRow } from '@cbh/ui';
import { ConfirmDialog, Dialog, DialogActions } from '@cbh/ui/overlays';
import { CertificateState } from './CertificateState';
import { titleCase, UNKNOWN } from './domain-display';
import { DnsRecordsTable } from './DnsRecordsTable';
import { SeverityBadge, StatusBadge } from './StatusBadge';

// uPlot comes with the chart, fetched when a panel first shows one (and once per visit: @cbh/ui/charts is shared)
const ResponseTimeChart = lazy(() => import('./ResponseTimeChart'));

const Section = styled.section`
  display: grid;
  gap: 10px;
  padding-top: 16px;
  border-top: 1px solid ${theme.colors.border};
  h3 {
    margin: 0;
    font-size: 15px;
  }
`;

const List = styled.ul`
  margin: 0;
  padding-left: 18px;
  display: grid;
  gap: 6px;
  li {
    overflow-wrap: anywhere;
  }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 4px 16px;
  margin: 0;
  font-size: 14px;
  dt {
    color: ${theme.colors.muted};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

function Verification({ detail }: { detail: DomainDetailView }) {
  const [verify, { isLoading }] = useVerifyDomainMutation();
  const verification = detail.verification;
  if (!verification) return <Muted>No verification record.</Muted>;
  const start = async () => {
    try {
      await verify(detail.id).unwrap();
      toast({
        title: 'Verification Started',
        description: `Looking up ${verification.recordName} now; the result shows here in a few seconds.`,
      });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to start verification.', variant: 'destructive' });
    }
  };
  return (
    <Section aria-labelledby="verification-title">
      <WrapRow>
        <h3 id="verification-title">Ownership verification</h3>
        <StatusBadge status={verification.status} />
      </WrapRow>
      <Muted>Add this TXT record at your DNS provider, then press Verify. Until it is seen, the domain is not checked any further.</Muted>
      <CopyField label="TXT record name" value={verification.recordName} buttonVariant="outline" namesButton />
      <CopyField label="TXT record value" value={verification.recordValue} buttonVariant="outline" namesButton />
      <WrapRow>
        {/* a verified domain is not re-checked: its checks go on, and a removed record would not stop them */}
        {verification.status === 'verified' ? null : (
          <Button onClick={start} disabled={isLoading || verification.status === 'verifying'}>
            {isLoading ? 'Starting...' : verification.status === 'verifying' ? 'Verifying...' : 'Verify'}
          </Button>
        )}
        <span data-testid="verification-result">
          {verification.checkedAt ? (
            <>
              Last checked <When at={verification.checkedAt} />: {titleCase(verification.status)}
              {verification.reason ? ` (${verification.reason})` : ''}
            </>
          ) : (
            'Not checked yet'
          )}
        </span>
      </WrapRow>
    </Section>
  );
}

function Certificate({ detail }: { detail: DomainDetailView }) {
  const certificate = detail.certificate;
  return (
    <Section aria-labelledby="certificate-title">
      <WrapRow>
        <h3 id="certificate-title">SSL certificate</h3>
        {certificate ? <StatusBadge status={certificate.status} /> : null}
      </WrapRow>
      {certificate ? (
        <Facts>
          <dt>Issuer</dt>
          <dd>{certificate.certificateType ?? UNKNOWN}</dd>
          <dt>State</dt>
          <dd>
            <CertificateState certificate={certificate} />
          </dd>
          <dt>Issued</dt>
          <dd>
            <When at={certificate.issuedAt} />
          </dd>
          <dt>Expires</dt>
          <dd>
            <When at={certificate.expiresAt} />
          </dd>
          <dt>Auto renew</dt>
          <dd>{certificate.autoRenew ? 'Enabled' : 'Disabled'}</dd>
        </Facts>
      ) : (
        <Muted>Not read yet: the certificate is read in each round once the domain is verified.</Muted>
      )}
    </Section>
  );
}

function RecentChecks({ detail }: { detail: DomainDetailView }) {
  return (
    <Section aria-labelledby="checks-title">
      <h3 id="checks-title">Recent checks</h3>
      {detail.recentChecks.length === 0 ? (
        <Muted>No checks yet.</Muted>
      ) : (
        <Suspense fallback={<Muted role="status">Loading chart…</Muted>}>
          <ResponseTimeChart checks={detail.recentChecks} />
        </Suspense>
      )}
    </Section>
  );
}

function DeleteDomain({ detail, onDeleted }: { detail: DomainDetailView; onDeleted: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [remove, { isLoading }] = useDeleteDomainMutation();
  const confirm = async () => {
    try {
      await remove(detail.id).unwrap();
      toast({ title: 'Domain Deleted', description: `${detail.domain} and everything its checks found are deleted.` });
      setConfirming(false);
      onDeleted();
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to delete the domain.', variant: 'destructive' });
    }
  };
  return (
    <Section aria-label="Delete domain">
      <WrapRow>
        <Button $variant="outline" style={{ color: theme.colors.destructive }} onClick={() => setConfirming(true)}>
          Delete Domain
        </Button>
      </WrapRow>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete ${detail.domain}?`}
        description="Its checks stop, and its certificate, DNS records, check history and alerts are deleted with it. This cannot be undone."
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={isLoading}
        onConfirm={confirm}
      />
    </Section>
  );
}

function Detail({ detail, onClose }: { detail: DomainDetailView; onClose: () => void }) {
  const openAlerts = detail.alerts.filter((alert) => alert.status === 'open');
  return (
    <>
      <WrapRow>
        <StatusBadge status={detail.status} />
        <Muted>
          Registrar: {detail.registrar ?? UNKNOWN} · Registration expires: <When at={detail.expiresAt} />
        </Muted>
      </WrapRow>
      <Verification detail={detail} />
      <Certificate detail={detail} />
      <RecentChecks detail={detail} />
      <Section aria-labelledby="records-title">
        <h3 id="records-title">DNS records</h3>
        <DnsRecordsTable records={detail.dnsRecords} showDomain={false} label={`DNS records of ${detail.domain}`} />
      </Section>
      <Section aria-labelledby="subdomains-title">
        <h3 id="subdomains-title">Subdomains</h3>
        {detail.subdomains.length === 0 ? (
          <Muted>None found yet: names under the domain show up here once its certificate or records mention them.</Muted>
        ) : (
          <List>
            {detail.subdomains.map((subdomain) => (
              <li key={subdomain.id}>{subdomain.name}</li>
            ))}
          </List>
        )}
      </Section>
      <Section aria-labelledby="open-alerts-title">
        <h3 id="open-alerts-title">Open alerts</h3>
        {openAlerts.length === 0 ? (
          <Muted>No open alerts.</Muted>
        ) : (
          <List>
            {openAlerts.map((alert) => (
              <li key={alert.id}>
                <SeverityBadge severity={alert.severity} /> {DOMAIN_ALERT_TYPE_LABELS[alert.alertType] ?? alert.alertType}: {alert.message}
              </li>
            ))}
          </List>
        )}
      </Section>
      <DeleteDomain detail={detail} onDeleted={onClose} />
    </>
  );
}

/** Manage: one domain with how to prove it is yours, what its checks found, and Delete. */
export function DomainDetailDialog({ domainId, onClose }: { domainId: number; onClose: () => void }) {
  const { data: detail, error, isError } = useGetDomainQuery(domainId);
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={detail?.domain ?? 'Domain'}
      description="Verification, certificate, checks, DNS records, subdomains and alerts of this domain."
      wide
    >
      {/* an error first: after a deletion elsewhere the last copy would still be there */}
      {isError ? (
        <Muted role="alert">This domain could not be loaded. {apiErrorMessage(error) ?? ''}</Muted>
      ) : detail ? (
        <Detail detail={detail} onClose={onClose} />
      ) : (
        <Muted role="status">Loading…</Muted>
      )}
      {/* a phone has no Escape key, and the overlay beside the panel is a thin strip there */}
      <DialogActions>
        <Button $variant="outline" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
