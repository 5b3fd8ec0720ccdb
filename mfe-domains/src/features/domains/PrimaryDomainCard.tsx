import { useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useGetDomainQuery } from '@cbh/api-client';
import type { DomainView } from '@cbh/contracts';
import { Card, FieldLabel, Muted, SectionTitle, Select, theme, When } from '@cbh/ui';
import { CertificateState } from './CertificateState';
import { dnsProvider, responseTimeText } from './domain-display';
import { StatusBadge } from './StatusBadge';
import { TestConnectionButton } from './TestConnectionButton';

const Heading = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 12px;
  margin-bottom: 12px;
  h3 {
    margin: 0;
    font-size: 16px;
    overflow-wrap: anywhere;
  }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(200px, 100%), 1fr));
  gap: 12px 24px;
  margin: 0 0 16px;
  dt {
    font-size: 13px;
    color: ${theme.colors.muted};
  }
  dd {
    margin: 2px 0 0;
    font-weight: 500;
    overflow-wrap: anywhere;
  }
`;

const Note = styled.p`
  margin: 0 0 16px;
  padding: 8px 12px;
  border-radius: ${theme.radius};
  background: #fef2f2;
  color: #991b1b;
  font-size: 14px;
`;

const TestAny = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: 8px 12px;
  margin-top: 16px;
`;

/**
 * Before any domain is verified there is no primary one to show, but whether a domain's site answers needs no
 * verification: any added domain can be tested from here.
 */
function TestAnyDomain({ domains }: { domains: readonly DomainView[] }) {
  const [chosen, setChosen] = useState<string>();
  // the list can change under the choice (a domain deleted): the newest then
  const domain = domains.some((entry) => entry.domain === chosen) ? chosen! : domains[0]!.domain;
  return (
    <TestAny>
      <FieldLabel>
        Domain to test
        <Select value={domain} onChange={(event) => setChosen(event.target.value)}>
          {domains.map((entry) => (
            <option key={entry.id} value={entry.domain}>
              {entry.domain}
            </option>
          ))}
        </Select>
      </FieldLabel>
      {/* keyed by the domain: an outcome shown belongs to the domain it was found for */}
      <TestConnectionButton key={domain} domain={domain} />
    </TestAny>
  );
}

function PrimaryDomain({ domainId }: { domainId: number }) {
  const { data: detail, isError, error } = useGetDomainQuery(domainId);
  if (isError) return <Muted role="alert">The primary domain could not be loaded. {apiErrorMessage(error) ?? ''}</Muted>;
  if (!detail) return <Muted role="status">Loading…</Muted>;
  const uptime = detail.monitoring.find((entry) => entry.monitoringType === 'uptime');
  const lastCheck = detail.recentChecks.at(-1);
  return (
    <>
      <Heading>
        <h3>{detail.domain}</h3>
        <StatusBadge status={detail.status} />
      </Heading>
      <Facts>
        <div>
          <dt>SSL Certificate</dt>
          <dd>
            <CertificateState certificate={detail.certificate} />
          </dd>
        </div>
        <div>
          <dt>DNS Provider</dt>
          <dd>{dnsProvider(detail.dnsRecords)}</dd>
        </div>
        <div>
          <dt>Response Time</dt>
          <dd>{responseTimeText(uptime?.responseTime)}</dd>
        </div>
        <div>
          <dt>Last Checked</dt>
          <dd>
            <When at={uptime?.lastCheck} />
          </dd>
        </div>
      </Facts>
      {lastCheck?.status === 'down' ? <Note role="note">Last check failed: {lastCheck.error ?? 'no answer'}</Note> : null}
      <TestConnectionButton domain={detail.domain} />
    </>
  );
}

/**
 * The Overview's first card: the primary domain (the API's choice: the earliest added verified one) at a glance, or
 * how to get one and a connection test for any of the `domains` added so far.
 */
export function PrimaryDomainCard({
  domainId,
  loading,
  domains,
}: {
  domainId: number | null;
  loading: boolean;
  domains: readonly DomainView[];
}) {
  return (
    <Card aria-labelledby="primary-domain-title" style={{ marginBottom: 24 }}>
      <SectionTitle id="primary-domain-title">Primary Domain Status</SectionTitle>
      {loading ? (
        <Muted role="status">Loading…</Muted>
      ) : domainId !== null ? (
        <PrimaryDomain domainId={domainId} />
      ) : (
        <>
          <Muted>
            No verified domain yet. Add a domain, open Manage, publish the TXT record it shows at your DNS provider, then press Verify: once
            the record is seen, the domain's certificate, DNS records and uptime appear here.
          </Muted>
          {domains.length > 0 ? <TestAnyDomain domains={domains} /> : null}
        </>
      )}
    </Card>
  );
}
