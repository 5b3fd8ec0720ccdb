import { Suspense, useState } from 'react';
import { useDeleteSloMutation } from '@cbh/api-client';
import { ROUTES, type SloView } from '@cbh/contracts';
import { useNavigate } from '@cbh/router';
import { Button } from '@cbh/ui';
import { ConfirmDelete, SloDialog } from './lazy-dialogs';

/** Edit (the SLO's dialog, prefilled) and Delete (asked first; back to the list once done), for circuit_breaker_admin. */
export function SloActions({ slo, domainAccess }: { slo: SloView; domainAccess: boolean }) {
  const [open, setOpen] = useState<'edit' | 'delete' | null>(null);
  const [remove] = useDeleteSloMutation();
  const navigate = useNavigate();
  const close = () => setOpen(null);
  return (
    <>
      <Button $variant="outline" onClick={() => setOpen('edit')}>
        Edit
      </Button>
      <Button $variant="outline" onClick={() => setOpen('delete')}>
        Delete
      </Button>
      <Suspense fallback={null}>
        {open === 'edit' ? <SloDialog slo={slo} domainAccess={domainAccess} onClose={close} /> : null}
        {open === 'delete' ? (
          <ConfirmDelete
            what="SLO"
            name={slo.name}
            consequence="Its counts and reports go with it, and its burn-rate alerts stop."
            remove={async () => {
              await remove(slo.id).unwrap();
              navigate(ROUTES.slos.path);
            }}
            onClose={close}
          />
        ) : null}
      </Suspense>
    </>
  );
}
