import { useState, type FormEvent } from 'react';
import { Button, FieldLabel, Fieldset, TextInput } from '@cbh/ui';

export function MasterKeyStep({ pending, onSubmit }: { pending: boolean; onSubmit: (masterKey: string) => void }) {
  const [masterKey, setMasterKey] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (masterKey && !pending) onSubmit(masterKey);
  };

  return (
    <form onSubmit={submit} aria-label="Master key verification">
      <Fieldset>
        <FieldLabel>
          Master key
          <TextInput type="password" autoComplete="off" value={masterKey} onChange={(event) => setMasterKey(event.target.value)} />
        </FieldLabel>
        <div>
          <Button type="submit" disabled={!masterKey || pending}>
            {pending ? 'Verifying...' : 'Verify Access'}
          </Button>
        </div>
      </Fieldset>
    </form>
  );
}
