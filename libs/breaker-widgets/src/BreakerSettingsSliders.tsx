import { BREAKER_SETTING_LIMITS as L, type BreakerCoreSettings } from '@cbh/contracts';
import { Fieldset, Slider } from '@cbh/ui';

/** The four settings every breaker has; times are shown in seconds and kept in milliseconds (scale). */
const FIELDS = [
  { key: 'failureThreshold', label: 'Failure threshold', limits: L.failureThreshold, unit: '', scale: 1 },
  { key: 'timeout', label: 'Timeout', limits: L.timeoutSeconds, unit: ' s', scale: 1000 },
  { key: 'recoveryTime', label: 'Recovery time', limits: L.recoveryTimeSeconds, unit: ' s', scale: 1000 },
  { key: 'successThreshold', label: 'Success threshold', limits: L.successThreshold, unit: '', scale: 1 },
] as const;

export interface BreakerSettingsSlidersProps {
  value: BreakerCoreSettings;
  onChange: (settings: BreakerCoreSettings) => void;
  disabled?: boolean;
}

/** The four settings as sliders in their ranges and steps. */
export function BreakerSettingsSliders({ value, onChange, disabled }: BreakerSettingsSlidersProps) {
  return (
    <Fieldset disabled={disabled}>
      {FIELDS.map(({ key, label, limits, unit, scale }) => (
        <Slider
          key={key}
          label={label}
          unit={unit}
          value={value[key] / scale}
          limits={limits}
          onChange={(shown) => onChange({ ...value, [key]: shown * scale })}
        />
      ))}
    </Fieldset>
  );
}
