import { useState, type FormEvent } from 'react';
import { useStartDrillMutation } from '@cbh/api-client';
import { drillPath, DRILL_LIMITS } from '@cbh/contracts';
import { useNavigate } from '@cbh/router';
import { Button, ButtonLink, Fieldset, Form, Muted, Problem, SectionTitle, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { changedList } from '../on-call/list-controls';
import { TextField } from '../shared/form-parts';
import { useFormDraft } from '../shared/use-form-draft';
import { useBreakerChoices } from './breaker-choices';
import { DRILL_FIELDS, drillBody, drillProblems, emptyDrill, emptyExpectation, emptyStep, type DrillDraft } from './drill-form';
import { ExpectationFields } from './ExpectationFields';
import { StartConfirm } from './StartConfirm';
import { StepFields } from './StepFields';

const DESCRIPTION =
  'Steps run one after the other, each injecting its fault into one breaker’s calls; expectations say how the breakers should react.';

/**
 * Composes a drill from the breakers on the wall, then asks, in words, before it starts: Review and start opens the
 * confirmation in place of the form, and its Cancel brings the form back as it was. A refusal (an old sign-in, a
 * breaker already under a drill, the site's limit of running drills) brings the form back with the reason.
 */
export function NewDrill({ onClose }: { onClose: () => void }) {
  const form = useFormDraft<DrillDraft, string>(emptyDrill(), drillProblems, DRILL_FIELDS);
  const choices = useBreakerChoices();
  const [confirming, setConfirming] = useState(false);
  const [signInAgain, setSignInAgain] = useState(false);
  const [start, { isLoading }] = useStartDrillMutation();
  const navigate = useNavigate();
  const { steps, expectations } = form.draft;
  const setSteps = (next: DrillDraft['steps'], parts: string[] = []) => form.change('steps', next, parts);
  const setExpectations = (next: DrillDraft['expectations'], parts: string[] = []) => form.change('expectations', next, parts);

  const review = (event: FormEvent) => {
    event.preventDefault();
    setConfirming(true);
  };
  const confirm = async () => {
    try {
      const drill = await start(drillBody(form.draft)).unwrap();
      toast({ title: 'Drill Started', description: `${drill.name} is running.` });
      onClose();
      navigate(drillPath(drill.id));
    } catch (error) {
      form.refused(error, 'Failed to start the drill.');
      setSignInAgain((error as { status?: unknown }).status === 403);
      setConfirming(false);
    }
  };

  if (confirming)
    return (
      <StartConfirm
        body={drillBody(form.draft)}
        choices={choices}
        pending={isLoading}
        onConfirm={confirm}
        onCancel={() => setConfirming(false)}
      />
    );

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title="New drill" description={DESCRIPTION} wide>
      <Form onSubmit={review} aria-label="New drill" noValidate>
        <Fieldset>
          <TextField label="Name" {...form.field('name')} placeholder="Payments slows down" />
          {choices.failed ? <Problem role="alert">The breakers could not be loaded.</Problem> : null}
          {!choices.loaded && !choices.failed ? <Muted role="status">Loading breakers…</Muted> : null}
          <SectionTitle as="h3">Steps</SectionTitle>
          {steps.map((step, index) => (
            <StepFields
              // steps have no ids: a step's place is its identity while the dialog is open
              key={index}
              index={index}
              count={steps.length}
              step={step}
              choices={choices}
              problem={form.problem}
              onChange={(changed, part) =>
                setSteps(
                  steps.map((each, at) => (at === index ? changed : each)),
                  [`steps.${index}.${part}`],
                )
              }
              onListChange={(change) => setSteps(changedList(steps, index, change))}
            />
          ))}
          {form.problem('steps') ? <Problem>Steps: {form.problem('steps')}</Problem> : null}
          <div>
            <Button
              type="button"
              $variant="outline"
              disabled={steps.length >= DRILL_LIMITS.steps}
              onClick={() => setSteps([...steps, emptyStep()])}
            >
              Add step
            </Button>
          </div>
          <SectionTitle as="h3">Expectations</SectionTitle>
          {expectations.length === 0 ? <Muted>None yet: the drill will report what happened without judging it.</Muted> : null}
          {expectations.map((expectation, index) => (
            <ExpectationFields
              key={index}
              index={index}
              count={expectations.length}
              expectation={expectation}
              choices={choices}
              problem={form.problem}
              onChange={(changed, part) =>
                setExpectations(
                  expectations.map((each, at) => (at === index ? changed : each)),
                  [`expectations.${index}.${part}`],
                )
              }
              onListChange={(change) => setExpectations(changedList(expectations, index, change))}
            />
          ))}
          {form.problem('expectations') ? <Problem>Expectations: {form.problem('expectations')}</Problem> : null}
          <div>
            <Button
              type="button"
              $variant="outline"
              disabled={expectations.length >= DRILL_LIMITS.expectations}
              // the first step's breaker is the likeliest to be expected to open
              onClick={() => setExpectations([...expectations, emptyExpectation(steps[0]?.breaker ?? '')])}
            >
              Add expectation
            </Button>
          </div>
          {form.formProblem ? <Problem role="alert">{form.formProblem}</Problem> : null}
          {signInAgain ? (
            <div>
              <ButtonLink href="/api/login">Sign in again</ButtonLink>
            </div>
          ) : null}
          <DialogActions>
            <Button type="button" $variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!form.valid || !choices.loaded}>
              Review and start
            </Button>
          </DialogActions>
        </Fieldset>
      </Form>
    </Dialog>
  );
}
