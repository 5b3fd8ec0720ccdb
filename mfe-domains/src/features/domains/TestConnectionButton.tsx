import { useState } from 'react';
import { Button, toast } from '@cbh/ui';
import { testConnection } from './connection-test';

type TestState = 'idle' | 'checking' | 'success' | 'error';

/** Checking, then success with the response time or error (§4), each told in a toast. */
export function TestConnectionButton({ domain }: { domain: string }) {
  const [state, setState] = useState<TestState>('idle');
  const run = async () => {
    setState('checking');
    const result = await testConnection(domain);
    if (result.ok) {
      setState('success');
      toast({ title: 'Domain Status', description: `${domain} is accessible (${result.ms}ms)` });
    } else {
      setState('error');
      toast({ title: 'Domain Test Failed', description: `${domain} is not accessible`, variant: 'destructive' });
    }
  };
  return (
    <Button $variant="outline" onClick={run} disabled={state === 'checking'} data-state={state}>
      {state === 'checking' ? 'Testing...' : 'Test Connection'}
    </Button>
  );
}
