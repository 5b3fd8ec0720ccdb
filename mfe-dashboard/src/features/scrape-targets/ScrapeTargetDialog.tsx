import { useCreateScrapeTargetMutation, useUpdateScrapeTargetMutation } from '@cbh/api-client';
import type { ScrapeTargetView } from '@cbh/contracts';
import { FormDialog } from '../shared/form-dialog';
import { SecretField, TextField } from '../shared/form-parts';
import { useRecordForm } from '../shared/use-record-form';
import { SCRAPE_TARGET_FORM } from './scrape-target-form';

/**
 * Adds a target, or edits one (`target`): a token typed replaces the kept one, an empty field keeps it. The dialog
 * stays open on a refusal, with the reason under the field it names.
 */
export function ScrapeTargetDialog({ target, onClose }: { target?: ScrapeTargetView; onClose: () => void }) {
  const { form, creating, frame } = useRecordForm(target, SCRAPE_TARGET_FORM, useCreateScrapeTargetMutation, useUpdateScrapeTargetMutation);

  return (
    <FormDialog
      title={target ? `Edit ${target.name}` : 'Add target'}
      description="A Prometheus endpoint exposing resilience4j’s circuit-breaker metrics. Its breakers join the wall read-only, with the target’s name as their service."
      formLabel={target ? 'Edit scrape target' : 'New scrape target'}
      {...frame}
      saved={(saved) => ({
        title: target ? 'Target Updated' : 'Target Added',
        description: `${saved.name} is scraped every ${saved.intervalSeconds} s; its breakers appear on the wall after the first good scrape.`,
      })}
      failure="Failed to save the target."
      onClose={onClose}
    >
      <TextField
        label="Name"
        hint="Lower-case letters, digits and dashes: the service its breakers show under."
        {...form.field('name')}
        placeholder="orders"
      />
      <TextField
        label="URL"
        type="url"
        hint="Its Prometheus endpoint: https, or http to a private address where the hub allows it."
        {...form.field('url')}
        placeholder="https://orders.internal/actuator/prometheus"
      />
      <TextField
        label="Interval (seconds)"
        inputMode="numeric"
        hint={creating ? 'How often the hub reads it. Leave empty for the hub’s default.' : 'How often the hub reads it.'}
        {...form.field('intervalSeconds')}
      />
      <SecretField
        label="Bearer token"
        hint="Optional: sent as Authorization: Bearer. Kept encrypted and never shown again."
        {...form.field('bearerToken')}
        placeholder="None"
        kept={target?.bearerTokenSet ?? false}
        remove={{
          label: 'Remove the token (the endpoint is read without one)',
          checked: form.draft.removeToken,
          onChange: (checked) => form.change('removeToken', checked),
        }}
      />
    </FormDialog>
  );
}
