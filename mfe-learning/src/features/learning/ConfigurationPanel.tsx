import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useUpdateBreakerSettingsMutation } from '@cbh/api-client';
import { LoadTestPanel } from '@cbh/breaker-widgets';
import { BREAKER_SETTING_LIMITS, type BreakerConfigView } from '@cbh/contracts';
import { Button, Card, Muted, Slider, toast } from '@cbh/ui';
import { Grid, Section } from './Section';

const Stack = styled.div`
  display: grid;
  gap: 16px;
`;

const L = BREAKER_SETTING_LIMITS;
/** The settings are saved to the first config's id, else to id 1. */
const FALLBACK_CONFIG_ID = 1;

export interface ConfigurationPanelProps {
  breaker: BreakerConfigView | undefined;
  canAdminister: boolean;
  canOperate: boolean;
}

/** The four settings sliders (threshold, timeout, recovery time, success threshold) saved with PATCH, and the load-test controls, for one breaker. */
export function ConfigurationPanel({ breaker, canAdminister, canOperate }: ConfigurationPanelProps) {
  const [failureThreshold, setFailureThreshold] = useState<number>(L.failureThreshold.default);
  const [timeoutSeconds, setTimeoutSeconds] = useState<number>(L.timeoutSeconds.default);
  const [recoverySeconds, setRecoverySeconds] = useState<number>(L.recoveryTimeSeconds.default);
  const [successThreshold, setSuccessThreshold] = useState<number>(L.successThreshold.default);
  const [update, { isLoading }] = useUpdateBreakerSettingsMutation();

  useEffect(() => {
    if (!breaker) return;
    setFailureThreshold(breaker.failureThreshold);
    setTimeoutSeconds(breaker.timeout / 1000);
    setRecoverySeconds(breaker.recoveryTime / 1000);
    setSuccessThreshold(breaker.successThreshold);
  }, [breaker]);

  const save = async () => {
    try {
      await update({
        id: breaker?.id ?? FALLBACK_CONFIG_ID,
        settings: { failureThreshold, timeout: timeoutSeconds * 1000, recoveryTime: recoverySeconds * 1000, successThreshold },
      }).unwrap();
      toast({ title: 'Configuration Updated', description: 'Circuit breaker settings have been applied successfully.' });
    } catch {
      toast({ title: 'Error', description: 'Failed to update configuration.', variant: 'destructive' });
    }
  };

  return (
    <Section
      id="configure"
      title="Configuration & Testing"
      intro={breaker ? `Tune ${breaker.name} (${breaker.type}) and put it under load.` : 'Tune a breaker and put it under load.'}
    >
      <Grid $min={320}>
        <Card aria-label="Breaker settings">
          <Stack>
            <h3>Settings</h3>
            <Slider
              label="Failure threshold"
              value={failureThreshold}
              limits={L.failureThreshold}
              disabled={!canAdminister}
              onChange={setFailureThreshold}
            />
            <Slider
              label="Timeout"
              unit=" s"
              value={timeoutSeconds}
              limits={L.timeoutSeconds}
              disabled={!canAdminister}
              onChange={setTimeoutSeconds}
            />
            <Slider
              label="Recovery time"
              unit=" s"
              value={recoverySeconds}
              limits={L.recoveryTimeSeconds}
              disabled={!canAdminister}
              onChange={setRecoverySeconds}
            />
            <Slider
              label="Success threshold"
              value={successThreshold}
              limits={L.successThreshold}
              disabled={!canAdminister}
              onChange={setSuccessThreshold}
            />
            <div>
              <Button onClick={save} disabled={!canAdminister || isLoading}>
                {isLoading ? 'Applying…' : 'Apply Configuration'}
              </Button>
            </div>
            {canAdminister ? null : <Muted style={{ fontSize: 13 }}>Changing settings needs the circuit_breaker_admin permission.</Muted>}
          </Stack>
        </Card>
        <Card aria-label="Load test controls">
          <h3>Load Test</h3>
          <LoadTestPanel configId={breaker?.id} canOperate={canOperate} />
        </Card>
      </Grid>
    </Section>
  );
}
