import { useState } from 'react';
import styled from 'styled-components';
import { Button, theme, toast } from '@cbh/ui';
import { testConnection } from './connection-test';

type TestState = { kind: 'idle' } | { kind: 'checking' } | { kind: 'success'; ms: number } | { kind: 'error' };

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 12px;
`;

const Outcome = styled.span<{ $ok: boolean }>`
  font-size: 14px;
  font-weight: 500;
  color: ${({ $ok }) => ($ok ? theme.colors.success : theme.colors.destructive)};
`;

/** Checking, then success with the response time or error (§4): told in a toast, and kept beside the button. */
export function TestConnectionButton({ domain }: { domain: string }) {
  const [state, setState] = useState<TestState>({ kind: 'idle' });
  const run = async () => {
    setState({ kind: 'checking' });
    const result = await testConnection(domain);
    if (result.ok) {
      setState({ kind: 'success', ms: result.ms });
      toast({ title: 'Domain Status', description: `${domain} is accessible (${result.ms}ms)` });
    } else {
      setState({ kind: 'error' });
      toast({ title: 'Domain Test Failed', description: `${domain} is not accessible`, variant: 'destructive' });
    }
  };
  return (
    <Row>
      <Button $variant="outline" onClick={run} disabled={state.kind === 'checking'}>
        {state.kind === 'checking' ? 'Testing...' : 'Test Connection'}
      </Button>
      <span role="status" data-testid="connection-outcome">
        {state.kind === 'success' ? <Outcome $ok>Accessible ({state.ms}ms)</Outcome> : null}
        {state.kind === 'error' ? <Outcome $ok={false}>Not accessible</Outcome> : null}
      </span>
    </Row>
  );
}
