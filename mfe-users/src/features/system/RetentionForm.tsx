import { useId, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useUpdateRetentionMutation } from '@cbh/api-client';
import {
  RETENTION_MAX_DAYS,
  RETENTION_SETTING_MIN_DAYS,
  RETENTION_SETTING_DESCRIPTIONS,
  RETENTION_SETTING_LABELS,
  RETENTION_SETTINGS,
  type RetentionSetting,
  type RetentionSettings,
} from '@cbh/contracts';
import { Button, FieldLabel, Muted, TextInput, toast } from '@cbh/ui';

const Form = styled.form`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(220px, 100%), 1fr));
  gap: 16px;
  align-items: start;
`;

const Setting = styled.div`
  display: grid;
  gap: 6px;
`;

const Hint = styled(Muted)`
  margin: 0;
  font-size: 12px;
`;

const Actions = styled.div`
  grid-column: 1 / -1;
`;

type Draft = Record<RetentionSetting, string>;

const draftOf = (settings: RetentionSettings): Draft =>
  Object.fromEntries(RETENTION_SETTINGS.map((setting) => [setting, String(settings[setting])])) as Draft;

/** A whole number of days within the bounds, or null; the API checks the same and names what it refuses. */
function daysOf(setting: RetentionSetting, text: string): number | null {
  const days = Number(text);
  const valid = text.trim() !== '' && Number.isInteger(days) && days >= RETENTION_SETTING_MIN_DAYS[setting] && days <= RETENTION_MAX_DAYS;
  return valid ? days : null;
}

/** The four retention settings in days; Save sends the ones changed. */
export function RetentionForm({ saved }: { saved: RetentionSettings }) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [updateRetention, { isLoading }] = useUpdateRetentionMutation();

  const changed = RETENTION_SETTINGS.filter((setting) => daysOf(setting, draft[setting]) !== saved[setting]);
  const valid = RETENTION_SETTINGS.every((setting) => daysOf(setting, draft[setting]) !== null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const patch = Object.fromEntries(changed.map((setting) => [setting, daysOf(setting, draft[setting])!])) as Partial<RetentionSettings>;
    try {
      await updateRetention(patch).unwrap();
      toast({ title: 'Retention Updated', description: 'The next prune keeps history for the new number of days.' });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to update retention.', variant: 'destructive' });
    }
  };

  return (
    <Form onSubmit={submit} aria-label="Retention settings">
      {RETENTION_SETTINGS.map((setting) => (
        <Setting key={setting}>
          <FieldLabel>
            {RETENTION_SETTING_LABELS[setting]} (days)
            <TextInput
              type="number"
              inputMode="numeric"
              min={RETENTION_SETTING_MIN_DAYS[setting]}
              max={RETENTION_MAX_DAYS}
              step={1}
              required
              aria-describedby={`${id}-${setting}`}
              value={draft[setting]}
              onChange={(event) => setDraft((current) => ({ ...current, [setting]: event.target.value }))}
            />
          </FieldLabel>
          <Hint id={`${id}-${setting}`}>{RETENTION_SETTING_DESCRIPTIONS[setting]}</Hint>
        </Setting>
      ))}
      <Actions>
        <Button type="submit" disabled={!valid || changed.length === 0 || isLoading}>
          {isLoading ? 'Saving...' : 'Save'}
        </Button>
      </Actions>
    </Form>
  );
}
