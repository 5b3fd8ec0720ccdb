import { apiErrorMessage, useBulkDomainsMutation } from '@cbh/api-client';
import { DOMAIN_BULK_TEXT, type DomainBulkAction, type DomainView } from '@cbh/contracts';
import { BulkActionsBar, type BulkSelection } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';

/**
 * The portfolio's toolbar for the chosen domains: select all shown, how many are chosen, Verify and Delete; one
 * confirmation says how many, which and what happens, and a toast sums the outcomes up. The domains that failed
 * stay chosen.
 */
export function DomainBulkActions(selection: BulkSelection<DomainBulkAction, DomainView>) {
  const [bulk, { isLoading }] = useBulkDomainsMutation();
  return (
    <BulkActionsBar
      noun="domain"
      texts={DOMAIN_BULK_TEXT}
      {...selection}
      nameOf={(domain) => domain.domain}
      run={(action, ids) => bulk({ action, ids }).unwrap()}
      errorText={apiErrorMessage}
      pending={isLoading}
    >
      {(dialog) => <ConfirmDialog {...dialog} />}
    </BulkActionsBar>
  );
}
