import { useState } from 'react';
import styled from 'styled-components';
import {
  apiErrorMessage,
  useGetAuthUserQuery,
  useGetDnsRecordsQuery,
  useGetDomainAlertsQuery,
  useGetDomainMonitoringQuery,
  useGetDomainsQuery,
  useGetDomainVerificationsQuery,
  useGetSslCertificatesQuery,
} from '@cbh/api-client';
import { hasPermission } from '@cbh/contracts';
import { AccessRestricted, Muted, PageHeader } from '@cbh/ui';
import { Tabs, type TabItem } from '@cbh/ui/overlays';
import { AddDomainDialog } from './AddDomainDialog';
import { AlertsTable } from './AlertsTable';
import { CertificatesTable } from './CertificatesTable';
import { DnsRecordsTable } from './DnsRecordsTable';
import { domainCounts, domainNames, primaryDomain } from './domain-display';
import { DomainDetailDialog } from './DomainDetailDialog';
import { DomainPortfolio } from './DomainPortfolio';
import { DomainStatCards } from './DomainStatCards';
import { MonitoringTable } from './MonitoringTable';
import { PrimaryDomainCard } from './PrimaryDomainCard';
import { useCriticalAlertToasts } from './useCriticalAlertToasts';

const TITLE = 'Domain Management';
const DESCRIPTION = 'SSL certificates, DNS records, uptime monitoring and alerts for your domains.';
export const NO_ACCESS_TEXT = "You don't have permission to access Domain Management.";

// min-width 0 lets the tables inside scroll sideways instead of widening the page on a narrow screen
const Page = styled.div`
  min-width: 0;
  max-width: 100%;
`;

/** The screen for a domain manager; its lists are read only once it is shown, never for others. */
function DomainsScreen() {
  const domains = useGetDomainsQuery();
  const verifications = useGetDomainVerificationsQuery();
  const certificates = useGetSslCertificatesQuery();
  const dnsRecords = useGetDnsRecordsQuery();
  const monitoring = useGetDomainMonitoringQuery();
  const alerts = useGetDomainAlertsQuery();
  const [managing, setManaging] = useState<number | null>(null);
  useCriticalAlertToasts();

  if (!domains.data) {
    return domains.isError ? (
      <Muted role="alert">The domains could not be loaded. {apiErrorMessage(domains.error) ?? ''}</Muted>
    ) : (
      <Muted role="status">Loading domains…</Muted>
    );
  }
  const nameOf = domainNames(domains.data);
  const counts = domainCounts(domains.data, certificates.data ?? [], alerts.data ?? []);
  const tabs: TabItem[] = [
    {
      value: 'overview',
      label: 'Overview',
      content: (
        <>
          <PrimaryDomainCard domain={primaryDomain(domains.data, verifications.data ?? [])} />
          <DomainPortfolio domains={domains.data} certificates={certificates.data ?? []} onManage={setManaging} />
        </>
      ),
    },
    {
      value: 'ssl',
      label: 'SSL Certificates',
      content: <CertificatesTable certificates={certificates.data ?? []} domainName={nameOf} />,
    },
    { value: 'dns', label: 'DNS Records', content: <DnsRecordsTable records={dnsRecords.data ?? []} domainName={nameOf} /> },
    { value: 'monitoring', label: 'Monitoring', content: <MonitoringTable entries={monitoring.data ?? []} domainName={nameOf} /> },
    { value: 'alerts', label: 'Alerts', content: <AlertsTable alerts={alerts.data ?? []} domainName={nameOf} /> },
  ];

  return (
    <>
      <DomainStatCards counts={counts} />
      <Tabs tabs={tabs} label="Domain management sections" />
      {managing !== null ? <DomainDetailDialog key={managing} domainId={managing} onClose={() => setManaging(null)} /> : null}
    </>
  );
}

export function DomainManagementPage() {
  const { data: me, isLoading } = useGetAuthUserQuery();
  if (isLoading) {
    return (
      <Page>
        <PageHeader title={TITLE} />
        <Muted role="status">Loading…</Muted>
      </Page>
    );
  }
  if (!hasPermission(me, 'domain_management')) {
    return (
      <Page>
        <PageHeader title={TITLE} />
        <AccessRestricted message={NO_ACCESS_TEXT} />
      </Page>
    );
  }
  return (
    <Page>
      <PageHeader title={TITLE} description={DESCRIPTION}>
        <AddDomainDialog />
      </PageHeader>
      <DomainsScreen />
    </Page>
  );
}
