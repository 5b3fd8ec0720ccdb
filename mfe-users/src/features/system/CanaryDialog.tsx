import { useId, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useStartCanaryMutation } from '@cbh/api-client';
import type { ReleaseView } from '@cbh/contracts';
import { Button, FieldLabel, Fieldset, TextInput, theme, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { CanarySloField } from './CanarySloField';
import { CANARY_MAX_SLOS, slosToSend } from './canary-slos';
import { CANARY_MAX_PERCENT, CANARY_MIN_PERCENT, canaryPercentOf, refusalText, versionText } from './release-text';

/** The share a new canary starts with: enough visitors to see a failure soon, few enough to spare most of them. */
const DEFAULT_PERCENT = 10;

const Form = styled.form`
  display: grid;
  gap: 16px;
`;

const Hint = styled.span`
  font-size: 13px;
  color: ${theme.colors.muted};
`;

const Problem = styled.span`
  font-size: 13px;
  color: ${theme.colors.destructive};
`;

/**
 * Starts a canary of a version for a share of visitors, or changes the share of the one running. The dialog stays
 * open on a refusal, with the server's reason in it.
 */
export function CanaryDialog({ release, versionId, onClose }: { release: ReleaseView; versionId: number; onClose: () => void }) {
  const id = useId();
  const { remote, canary } = release;
  const [text, setText] = useState(String(canary?.versionId === versionId ? canary.percent : DEFAULT_PERCENT));
  // the running canary's own SLOs start ticked: changing its share keeps them unless they are unticked
  const [slos, setSlos] = useState<number[]>(() => (canary?.versionId === versionId ? canary.slos.map((slo) => slo.id) : []));
  const [refusal, setRefusal] = useState<string | null>(null);
  const [start, { isLoading }] = useStartCanaryMutation();
  const running = canary?.versionId === versionId;
  const percent = canaryPercentOf(text);
  const problem = percent === null ? `must be a whole number from ${CANARY_MIN_PERCENT} to ${CANARY_MAX_PERCENT}` : null;
  const sloProblem = slos.length > CANARY_MAX_SLOS ? `must name at most ${CANARY_MAX_SLOS} SLOs` : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (percent === null || sloProblem) return;
    try {
      await start({ remote, versionId, percent, slos: slosToSend(slos, release, versionId) }).unwrap();
      toast({
        title: running ? 'Canary Changed' : 'Canary Started',
        description: `Version ${versionId} of ${remote} goes to ${percent} % of visitors, each kept on their side. Promote it or abort it here.`,
      });
      onClose();
    } catch (error) {
      setRefusal(apiErrorMessage(error) ?? 'The hub could not be reached; try again.');
      toast({
        title: 'Error',
        description: refusalText(`The canary of version ${versionId} did not start`, error),
        variant: 'destructive',
      });
    }
  };

  const replaces = canary && canary.versionId !== versionId ? ` It replaces the canary of version ${canary.versionId}.` : '';
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Canary of version ${versionId}`}
      description={`Version ${versionId} of ${remote} goes to a share of visitors, each staying on the side they fall on; the others keep ${versionText(release.liveVersionId)}.${replaces}`}
    >
      <Form onSubmit={submit} aria-label={`Canary of version ${versionId} of ${remote}`} noValidate>
        <Fieldset disabled={isLoading}>
          <FieldLabel>
            Share of visitors (%)
            <TextInput
              type="number"
              inputMode="numeric"
              min={CANARY_MIN_PERCENT}
              max={CANARY_MAX_PERCENT}
              step={1}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                setRefusal(null);
              }}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-hint ${id}-problem` : `${id}-hint`}
            />
          </FieldLabel>
          <Hint id={`${id}-hint`}>
            From {CANARY_MIN_PERCENT} to {CANARY_MAX_PERCENT}. A canary that fails to load for too many people is rolled back by itself.
          </Hint>
          {problem ? <Problem id={`${id}-problem`}>Share of visitors: {problem}</Problem> : null}
          <CanarySloField
            remote={remote}
            value={slos}
            onChange={(chosen) => {
              setSlos(chosen);
              setRefusal(null);
            }}
            problem={sloProblem}
          />
          {refusal ? <Problem role="alert">{refusal}</Problem> : null}
          <DialogActions>
            <Button type="button" $variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={problem !== null || sloProblem !== undefined || isLoading}>
              {isLoading ? 'Saving...' : running ? 'Change share' : 'Start canary'}
            </Button>
          </DialogActions>
        </Fieldset>
      </Form>
    </Dialog>
  );
}
