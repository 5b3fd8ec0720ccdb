import { useState } from 'react';
import styled from 'styled-components';
import {
  apiErrorMessage,
  useGetAuthUserQuery,
  useGetDnsRecordsQuery,
  useGetDomainAlertsQuery,
  useGetDomainMonitoringQuery,
  useGetDomainsQuery,
  useGetDomainSummaryQuery,
  useGetSslCertificatesQuery,
} from '@cbh/api-client';
import { ConfigurationActions } from '@cbh/config-ui';
import {
  canOpen,
  DOMAIN_BULK_ACTIONS,
  DOMAIN_BULK_PERMISSIONS,
  hasPermission,
  ROUTES,
  type AuthUser,
  type DomainBulkAction,
} from '@cbh/contracts';
import { AccessRestricted, Muted, PermittedPage } from '@cbh/ui';
import { Tabs, type TabItem } from '@cbh/ui/overlays';
import { AddDomainDialog } from './AddDomainDialog';
import { AlertsTable } from './AlertsTable';
import { CertificatesTable } from './CertificatesTable';
import { DnsRecordsTable } from './DnsRecordsTable';
import { domainNames } from './domain-display';
import { DomainDetailDialog } from './DomainDetailDialog';
import { DomainPortfolio } from './DomainPortfolio';
import { DomainStatCards } from './DomainStatCards';
import { LoadedList } from './LoadedList';
import { MonitoringTable } from './MonitoringTable';
import { PrimaryDomainCard } from './PrimaryDomainCard';
import { useCriticalAlertToasts } from './useCriticalAlertToasts';

const TITLE = 'Domain Management';
const DESCRIPTION = 'SSL certificates, DNS records, uptime monitoring and alerts for your domains.';
export const NO_ACCESS_TEXT = "You don't have permission to access Domain Management.";

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;

/** The portfolio's actions on many domains this person may take: bulk_operations and each action's own permission. */
function domainBulkActions(user: AuthUser | null | undefined): DomainBulkAction[] {
  if (!hasPermission(user, 'bulk_operations')) return [];
  return DOMAIN_BULK_ACTIONS.filter((action) => hasPermission(user, DOMAIN_BULK_PERMISSIONS[action]));
}

/** The screen for a domain manager; its lists are read only once it is shown, never for others. */
function DomainsScreen({ bulkActions }: { bulkActions: readonly DomainBulkAction[] }) {
  const summary = useGetDomainSummaryQuery();
  const domains = useGetDomainsQuery();
  const certificates = useGetSslCertificatesQuery();
  const dnsRecords = useGetDnsRecordsQuery();
  const monitoring = useGetDomainMonitoringQuery();
  const alerts = useGetDomainAlertsQuery();
  const [managing, setManaging] = useState<number | null>(null);
  useCriticalAlertToasts();

  const nameOf = domainNames(domains.data ?? []);
  const tabs: TabItem[] = [
    {
      value: 'overview',
      label: 'Overview',
      content: (
        <>
          <PrimaryDomainCard domainId={summary.data?.primaryDomainId ?? null} loading={!summary.data} domains={domains.data ?? []} />
          <LoadedList query={domains} what="domains">
            {(rows) => (
              <DomainPortfolio
                domains={rows}
                total={summary.data?.totalDomains ?? rows.length}
                certificates={certificates.data ?? []}
                onManage={setManaging}
                bulkActions={bulkActions}
              />
            )}
          </LoadedList>
        </>
      ),
    },
    {
      value: 'ssl',
      label: 'SSL Certificates',
      content: (
        <LoadedList query={certificates} what="SSL certificates">
          {(rows) => <CertificatesTable certificates={rows} domainName={nameOf} />}
        </LoadedList>
      ),
    },
    {
      value: 'dns',
      label: 'DNS Records',
      content: (
        <LoadedList query={dnsRecords} what="DNS records">
          {(rows) => <DnsRecordsTable records={rows} domainName={nameOf} />}
        </LoadedList>
      ),
    },
    {
      value: 'monitoring',
      label: 'Monitoring',
      content: (
        <LoadedList query={monitoring} what="monitoring entries">
          {(rows) => <MonitoringTable entries={rows} domainName={nameOf} />}
        </LoadedList>
      ),
    },
    {
      value: 'alerts',
      label: 'Alerts',
      content: (
        <LoadedList query={alerts} what="alerts">
          {(rows) => <AlertsTable alerts={rows} domainName={nameOf} />}
        </LoadedList>
      ),
    },
  ];

  return (
    <>
      <DomainStatCards summary={summary.data} />
      {summary.isError ? <Muted role="alert">The figures could not be loaded. {apiErrorMessage(summary.error) ?? ''}</Muted> : null}
      <Tabs tabs={tabs} label="Domain management sections" />
      {managing !== null ? <DomainDetailDialog key={managing} domainId={managing} onClose={() => setManaging(null)} /> : null}
    </>
  );
}

export function DomainManagementPage() {
  const { data: me, isLoading } = useGetAuthUserQuery();
  return (
    <PermittedPage
      title={TITLE}
      description={DESCRIPTION}
      actions={
        <Toolbar>
          <AddDomainDialog />
          <ConfigurationActions />
        </Toolbar>
      }
      user={me}
      loading={isLoading}
      allows={(user) => canOpen(user, ROUTES.domains)}
      restricted={<AccessRestricted message={NO_ACCESS_TEXT} />}
    >
      {(user) => <DomainsScreen bulkActions={domainBulkActions(user)} />}
    </PermittedPage>
  );
}
