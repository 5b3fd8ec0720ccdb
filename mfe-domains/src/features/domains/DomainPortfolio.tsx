import styled from 'styled-components';
import type { DomainBulkAction, DomainView, SslCertificateView } from '@cbh/contracts';
import { Button, DataTable, Muted, SectionTitle, theme, useSelection, VisuallyHidden, When } from '@cbh/ui';
import { AddDomainDialog } from './AddDomainDialog';
import { DomainBulkActions } from './DomainBulkActions';
import { NOT_AVAILABLE, UNKNOWN } from './domain-display';
import { StatusBadge } from './StatusBadge';

const PORTFOLIO_COLUMNS = ['Domain', 'Status', 'Registrar', 'Expires', 'SSL', 'Actions'];
const SELECTABLE_COLUMNS = ['Select', ...PORTFOLIO_COLUMNS];

const Actions = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
`;

/** An empty portfolio's words and, under them, the action that fills it. */
const EmptyPortfolio = styled.span`
  display: grid;
  justify-items: start;
  gap: 12px;
`;

const LinkOut = styled.a`
  display: inline-flex;
  padding: 6px;
  border-radius: ${theme.radius};
  color: ${theme.colors.primary};
  svg {
    width: 16px;
    height: 16px;
  }
  &:focus-visible {
    outline: 2px solid ${theme.colors.primary};
  }
`;

function LinkOutIcon() {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      <path d="M9 2h5v5M14 2L7 9M12 9.5V13a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h3.5" />
    </svg>
  );
}

/**
 * Every domain with its registration and certificate; Manage opens its detail, an active one links out to its site.
 * Holders of bulk_operations choose rows to verify or delete many at once.
 */
export function DomainPortfolio({
  domains,
  total,
  certificates,
  onManage,
  bulkActions = [],
}: {
  domains: readonly DomainView[];
  /** how many there are in all: the list holds the newest ones only, up to its limit */
  total: number;
  certificates: readonly SslCertificateView[];
  onManage: (domainId: number) => void;
  /** What the person may do to many domains at once: rows can be chosen when there is anything. */
  bulkActions?: readonly DomainBulkAction[];
}) {
  const selectable = bulkActions.length > 0;
  const certificateOf = new Map(certificates.map((certificate) => [certificate.domainId, certificate]));
  const { selected, toggle, selectAll, setSelected } = useSelection();
  return (
    <section aria-labelledby="portfolio-title">
      <SectionTitle id="portfolio-title">Domain Portfolio</SectionTitle>
      {total > domains.length ? (
        <Muted role="note" style={{ marginBottom: 8 }}>
          Showing the newest {domains.length} of {total} domains.
        </Muted>
      ) : null}
      {selectable && domains.length > 0 ? (
        <DomainBulkActions shown={domains} selected={selected} actions={bulkActions} selectAll={selectAll} setSelected={setSelected} />
      ) : null}
      <DataTable
        label="Domain portfolio"
        minWidth={720}
        columns={selectable ? SELECTABLE_COLUMNS : PORTFOLIO_COLUMNS}
        empty={
          <EmptyPortfolio>
            No domains registered
            <AddDomainDialog label="Add your first domain" />
          </EmptyPortfolio>
        }
      >
        {domains.map((domain) => {
          const certificate = certificateOf.get(domain.id);
          return (
            <tr key={domain.id} data-testid={`domain-row-${domain.id}`}>
              {selectable ? (
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select ${domain.domain}`}
                    checked={selected.has(domain.id)}
                    onChange={() => toggle(domain.id)}
                  />
                </td>
              ) : null}
              <td>{domain.domain}</td>
              <td>
                <StatusBadge status={domain.status} />
              </td>
              <td>{domain.registrar ?? UNKNOWN}</td>
              <td>
                <When at={domain.expiresAt} />
              </td>
              <td>{certificate ? <StatusBadge status={certificate.status} /> : NOT_AVAILABLE}</td>
              <td>
                <Actions>
                  <Button $variant="outline" onClick={() => onManage(domain.id)}>
                    Manage<VisuallyHidden> {domain.domain}</VisuallyHidden>
                  </Button>
                  {domain.status === 'active' ? (
                    <LinkOut
                      href={`https://${domain.domain}`}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={`Open ${domain.domain} in a new tab`}
                      title={`Open ${domain.domain} in a new tab`}
                    >
                      <LinkOutIcon />
                    </LinkOut>
                  ) : null}
                </Actions>
              </td>
            </tr>
          );
        })}
      </DataTable>
    </section>
  );
}
