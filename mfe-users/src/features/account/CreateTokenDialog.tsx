import { useState } from 'react';
import { useCreateTokenMutation } from '@cbh/api-client';
import type { Permission } from '@cbh/contracts';
import { Button } from '@cbh/ui';
import { Dialog } from '@cbh/ui/overlays';
import { NewTokenForm } from '../tokens/NewTokenForm';

const DEFAULT_DAYS = 30;

/** Creates one of the person's own access tokens, with at most the permissions they hold. */
export function CreateTokenDialog({ held }: { held: readonly Permission[] }) {
  const [open, setOpen] = useState(false);
  const [createToken] = useCreateTokenMutation();
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="New Access Token"
      description="A token lets a script call the API as you, with at most the permissions you choose here."
      trigger={<Button>New Token</Button>}
    >
      {/* mounted only while open: closing the dialog forgets the form and the secret */}
      {open ? (
        <NewTokenForm
          allowed={held}
          defaultDays={DEFAULT_DAYS}
          placeholder="ci-export"
          create={(request) => createToken(request).unwrap()}
          onDone={() => setOpen(false)}
        />
      ) : null}
    </Dialog>
  );
}
