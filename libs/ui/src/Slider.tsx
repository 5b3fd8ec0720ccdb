import styled from 'styled-components';

const Label = styled.label`
  display: grid;
  gap: 6px;
  font-size: 14px;
  font-weight: 500;
  input {
    width: 100%;
  }
`;

export interface SliderProps {
  label: string;
  value: number;
  unit?: string;
  limits: { min: number; max: number; step?: number };
  disabled?: boolean;
  onChange: (value: number) => void;
}

/** A labelled range input that shows its value. */
export function Slider({ label, value, unit = '', limits, disabled, onChange }: SliderProps) {
  return (
    <Label>
      <span>
        {label}:{' '}
        <strong>
          {value}
          {unit}
        </strong>
      </span>
      <input
        type="range"
        min={limits.min}
        max={limits.max}
        step={limits.step ?? 1}
        value={value}
        disabled={disabled}
        aria-valuetext={`${value}${unit}`}
        onChange={(event) => onChange(Number(event.target.value))}
      />
    </Label>
  );
}
