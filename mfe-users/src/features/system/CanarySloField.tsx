import { apiErrorMessage, useGetSlosQuery } from '@cbh/api-client';
import { CheckboxGroup, Muted } from '@cbh/ui';
import { CANARY_MAX_SLOS, CANARY_SLO_RULE, NO_SLO_TEXT, slosJudging } from './canary-slos';

const LEGEND = 'Judged by SLOs';

/**
 * The SLOs a canary of `remote` is judged by: a box for each SLO over that remote's loads, the only ones the API
 * takes. With none to offer it says so, and how to get one, rather than leaving the choice out unexplained.
 */
export function CanarySloField({
  remote,
  value,
  onChange,
  problem,
}: {
  remote: string;
  value: readonly number[];
  onChange: (slos: number[]) => void;
  problem?: string;
}) {
  const slos = useGetSlosQuery();
  if (slos.isError) {
    return (
      <Muted>
        The SLOs could not be loaded, so none can be picked here. {apiErrorMessage(slos.error) ?? 'The hub could not be reached.'}
      </Muted>
    );
  }
  if (!slos.data) return <Muted role="status">Loading the SLOs of {remote}…</Muted>;
  const judging = slosJudging(slos.data, remote);
  if (judging.length === 0) return <Muted>{NO_SLO_TEXT}</Muted>;
  return (
    <CheckboxGroup
      legend={LEGEND}
      choices={judging.map((slo) => ({ value: String(slo.id), label: slo.name }))}
      value={value.map(String)}
      onChange={(chosen) => onChange(chosen.map(Number))}
      hint={`Optional, at most ${CANARY_MAX_SLOS}. ${CANARY_SLO_RULE}`}
      problem={problem}
    />
  );
}
