import type { Problems } from './form-checks';
import { useFormDraft } from './use-form-draft';

/** How one kind of record is added and edited through a form: the functions of its form module. */
export interface RecordForm<Draft extends object, Field extends string, Row, Create, Patch extends object> {
  fields: readonly Field[];
  empty: () => Draft;
  /** An existing record in the edit form. */
  draftOf: (row: Row) => Draft;
  problems: (draft: Draft, creating: boolean) => Problems<Field>;
  toCreate: (draft: Draft) => Create;
  /** What an edit changes: empty when it changes nothing. */
  toUpdate: (draft: Draft, row: Row) => Patch;
}

/** An RTK Query mutation hook, as far as a form uses it. */
type MutationHook<Arg, Saved> = () => readonly [(arg: Arg) => { unwrap: () => Promise<Saved> }, { isLoading: boolean }];

/**
 * The draft of a form that adds a record, or edits `row` when given: an edit sends only what changed (PATCH), and
 * one that changes nothing is `unchanged`, so Save waits for a change.
 */
export function useRecordForm<Draft extends object, Field extends string, Row extends { id: Id }, Id, Create, Patch extends object, Saved>(
  row: Row | undefined,
  spec: RecordForm<Draft, Field, Row, Create, Patch>,
  useCreate: MutationHook<Create, Saved>,
  useUpdate: MutationHook<Patch & { id: Id }, Saved>,
) {
  const creating = !row;
  const form = useFormDraft(row ? spec.draftOf(row) : spec.empty(), (draft) => spec.problems(draft, creating), spec.fields);
  const [create, creation] = useCreate();
  const [update, updating] = useUpdate();
  const patch = row ? spec.toUpdate(form.draft, row) : null;
  return {
    form,
    creating,
    /** What FormDialog takes of it. */
    frame: {
      form,
      pending: creation.isLoading || updating.isLoading,
      unchanged: patch !== null && Object.keys(patch).length === 0,
      save: (): Promise<Saved> => (row && patch ? update({ id: row.id, ...patch }) : create(spec.toCreate(form.draft))).unwrap(),
    },
  };
}
