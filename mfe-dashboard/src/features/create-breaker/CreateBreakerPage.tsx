import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useCreateBreakerMutation, useGetAuthUserQuery } from '@cbh/api-client';
import { BreakerSettingsSliders } from '@cbh/breaker-widgets/controls';
import {
  BREAKER_TYPES,
  DEFAULT_BREAKER_SETTINGS,
  hasPermission,
  ROUTES,
  type BreakerCoreSettings,
  type BreakerTypeName,
} from '@cbh/contracts';
import { useNavigate } from '@cbh/router';
import { Button, Card, Muted, PageHeader, theme, toast } from '@cbh/ui';

const Form = styled.form`
  display: grid;
  gap: 18px;
  max-width: 560px;
  label {
    display: grid;
    gap: 6px;
    font-size: 14px;
    font-weight: 500;
  }
  input[type='text'],
  input[type='number'],
  select {
    font: inherit;
    padding: 8px 10px;
    border: 1px solid ${theme.colors.border};
    border-radius: 6px;
  }
`;

const TYPE_NOTES: Record<BreakerTypeName, string> = {
  simple: 'Opens after consecutive failures; closes after successful trial calls.',
  adaptive: 'Opens on the failure rate over a sliding window; its threshold and open time adapt.',
  bulkhead: 'Simple, plus a limit on calls in flight at once.',
};

export function CreateBreakerPage() {
  const { data: user } = useGetAuthUserQuery();
  const navigate = useNavigate();
  const [createBreaker, { isLoading }] = useCreateBreakerMutation();
  const [name, setName] = useState('');
  const [type, setType] = useState<BreakerTypeName>('simple');
  const [settings, setSettings] = useState<BreakerCoreSettings>(DEFAULT_BREAKER_SETTINGS);
  const [maxConcurrentCalls, setMaxConcurrentCalls] = useState(10);
  const [maxQueue, setMaxQueue] = useState(0);

  if (!hasPermission(user, 'circuit_breaker_admin')) {
    return (
      <Card>
        <PageHeader
          title="Create Circuit Breaker"
          description="You need the circuit_breaker_admin permission to create circuit breakers."
        />
      </Card>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const created = await createBreaker({
        name,
        type,
        ...settings,
        ...(type === 'bulkhead' ? { maxConcurrentCalls, maxQueue } : {}),
      }).unwrap();
      toast({ title: 'Circuit Breaker Created', description: `${created.name} is ready and CLOSED.` });
      navigate(ROUTES.dashboard.path);
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to create the circuit breaker.', variant: 'destructive' });
    }
  };

  return (
    <>
      <PageHeader title="Create Circuit Breaker" description="Choose a type and its settings; the breaker starts CLOSED." />
      <Card>
        <Form onSubmit={submit} aria-label="New circuit breaker">
          <label>
            Name
            <input
              type="text"
              value={name}
              onChange={(event) => setName(event.target.value)}
              placeholder="Payment Gateway"
              required
              maxLength={100}
            />
          </label>
          <label>
            Type
            <select value={type} onChange={(event) => setType(event.target.value as BreakerTypeName)}>
              {BREAKER_TYPES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </label>
          <Muted>{TYPE_NOTES[type]}</Muted>
          <BreakerSettingsSliders value={settings} onChange={setSettings} />
          {type === 'adaptive' ? (
            <Muted data-testid="adaptive-ranges">
              Threshold adapts within {Math.max(1, settings.failureThreshold - 2)}–{settings.failureThreshold + 3}; open time within{' '}
              {settings.timeout / 2000}–{settings.timeout / 1000} s.
            </Muted>
          ) : null}
          {type === 'bulkhead' ? (
            <>
              <label>
                Max concurrent calls
                <input
                  type="number"
                  min={1}
                  max={1000}
                  value={maxConcurrentCalls}
                  onChange={(event) => setMaxConcurrentCalls(Number(event.target.value))}
                />
              </label>
              <label>
                Max queue
                <input type="number" min={0} max={1000} value={maxQueue} onChange={(event) => setMaxQueue(Number(event.target.value))} />
              </label>
            </>
          ) : null}
          <div>
            <Button type="submit" disabled={!name.trim() || isLoading}>
              {isLoading ? 'Creating...' : 'Create Circuit Breaker'}
            </Button>
          </div>
        </Form>
      </Card>
    </>
  );
}
