import type { FormEvent } from 'react';
import { useCreateScrapeTargetMutation, useUpdateScrapeTargetMutation } from '@cbh/api-client';
import type { ScrapeTargetView } from '@cbh/contracts';
import { Button, Fieldset, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { Form, Problem, SecretField, TextField } from '../shared/form-parts';
import { useFormDraft } from '../shared/use-form-draft';
import {
  emptyScrapeTargetDraft,
  SCRAPE_TARGET_FIELDS,
  scrapeTargetDraftOf,
  scrapeTargetProblems,
  scrapeTargetToCreate,
  scrapeTargetToUpdate,
} from './scrape-target-form';

/**
 * Adds a target, or edits one (`target`): a token typed replaces the kept one, an empty field keeps it. The dialog
 * stays open on a refusal, with the reason under the field it names.
 */
export function ScrapeTargetDialog({ target, onClose }: { target?: ScrapeTargetView; onClose: () => void }) {
  const creating = !target;
  const form = useFormDraft(
    target ? scrapeTargetDraftOf(target) : emptyScrapeTargetDraft(),
    (draft) => scrapeTargetProblems(draft, creating),
    SCRAPE_TARGET_FIELDS,
  );
  const [create, creation] = useCreateScrapeTargetMutation();
  const [update, updating] = useUpdateScrapeTargetMutation();
  const pending = creation.isLoading || updating.isLoading;
  const { draft } = form;
  const patch = target ? scrapeTargetToUpdate(draft, target) : null;
  const unchanged = patch !== null && Object.keys(patch).length === 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved =
        target && patch ? await update({ id: target.id, ...patch }).unwrap() : await create(scrapeTargetToCreate(draft)).unwrap();
      toast({
        title: target ? 'Target Updated' : 'Target Added',
        description: `${saved.name} is scraped every ${saved.intervalSeconds} s; its breakers appear on the wall after the first good scrape.`,
      });
      onClose();
    } catch (error) {
      form.refused(error, 'Failed to save the target.');
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={target ? `Edit ${target.name}` : 'Add target'}
      description="A Prometheus endpoint exposing resilience4j’s circuit-breaker metrics. Its breakers join the wall read-only, with the target’s name as their service."
    >
      <Form onSubmit={submit} aria-label={target ? 'Edit scrape target' : 'New scrape target'} noValidate>
        <Fieldset disabled={pending}>
          <TextField
            label="Name"
            hint="Lower-case letters, digits and dashes: the service its breakers show under."
            problem={form.problem('name')}
            value={draft.name}
            onChange={(value) => form.change('name', value)}
            placeholder="orders"
          />
          <TextField
            label="URL"
            type="url"
            hint="Its Prometheus endpoint: https, or http to a private address where the hub allows it."
            problem={form.problem('url')}
            value={draft.url}
            onChange={(value) => form.change('url', value)}
            placeholder="https://orders.internal/actuator/prometheus"
          />
          <TextField
            label="Interval (seconds)"
            inputMode="numeric"
            hint={creating ? 'How often the hub reads it. Leave empty for the hub’s default.' : 'How often the hub reads it.'}
            problem={form.problem('intervalSeconds')}
            value={draft.intervalSeconds}
            onChange={(value) => form.change('intervalSeconds', value)}
          />
          <SecretField
            label="Bearer token"
            hint="Optional: sent as Authorization: Bearer. Kept encrypted and never shown again."
            problem={form.problem('bearerToken')}
            value={draft.bearerToken}
            onChange={(value) => form.change('bearerToken', value)}
            placeholder="None"
            kept={target?.bearerTokenSet ?? false}
            remove={{
              label: 'Remove the token (the endpoint is read without one)',
              checked: draft.removeToken,
              onChange: (checked) => form.change('removeToken', checked),
            }}
          />
          {form.formProblem ? <Problem role="alert">{form.formProblem}</Problem> : null}
          <DialogActions>
            <Button type="button" $variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!form.valid || unchanged || pending}>
              {pending ? 'Saving...' : 'Save'}
            </Button>
          </DialogActions>
        </Fieldset>
      </Form>
    </Dialog>
  );
}
