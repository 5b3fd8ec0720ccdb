import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useUpdateBreakerSettingsMutation } from '@cbh/api-client';
import { BreakerSettingsSliders, LoadTestPanel } from '@cbh/breaker-widgets/controls';
import { DEFAULT_BREAKER_SETTINGS, type BreakerConfigView, type BreakerCoreSettings } from '@cbh/contracts';
import { Button, Card, Muted, toast } from '@cbh/ui';
import { Grid, Section } from './Section';

const Stack = styled.div`
  display: grid;
  gap: 16px;
`;

/** The settings are saved to the first config's id, else to id 1. */
const FALLBACK_CONFIG_ID = 1;

export interface ConfigurationPanelProps {
  breaker: BreakerConfigView | undefined;
  canAdminister: boolean;
  canOperate: boolean;
}

/**
 * The four settings sliders (threshold, timeout, recovery time, success threshold) saved with PATCH, and the
 * load-test controls, for one breaker.
 */
export function ConfigurationPanel({ breaker, canAdminister, canOperate }: ConfigurationPanelProps) {
  const [settings, setSettings] = useState<BreakerCoreSettings>(DEFAULT_BREAKER_SETTINGS);
  const [update, { isLoading }] = useUpdateBreakerSettingsMutation();

  useEffect(() => {
    if (!breaker) return;
    const { failureThreshold, timeout, recoveryTime, successThreshold } = breaker;
    setSettings({ failureThreshold, timeout, recoveryTime, successThreshold });
  }, [breaker]);

  const save = async () => {
    try {
      await update({ id: breaker?.id ?? FALLBACK_CONFIG_ID, settings }).unwrap();
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
            <BreakerSettingsSliders value={settings} onChange={setSettings} disabled={!canAdminister} />
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
