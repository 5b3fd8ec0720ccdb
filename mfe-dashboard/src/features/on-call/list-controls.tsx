import styled from 'styled-components';
import { Button, FieldGroup, FieldRow, theme, VisuallyHidden } from '@cbh/ui';

/** `list` with the item at `index` moved one place up (-1) or down (1). */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const next = [...list];
  const [item] = next.splice(index, 1);
  next.splice(index + by, 0, item as T);
  return next;
}

/** What ItemHead asks of its list: the item moved one place up (-1) or down (1), or removed. */
export type ListChange = { move: -1 | 1 } | { remove: true };

/**
 * What a form gives each item of one of its lists: its place in the list, its problems by field (`Field`), and how it
 * tells a change of the item (`part`: which of its fields, so that field's problem shows from then on) or of its place.
 */
export interface ListItemProps<Draft, Part, Field> {
  index: number;
  count: number;
  problem: (field: Field) => string | undefined;
  onChange: (draft: Draft, part: Part) => void;
  onListChange: (change: ListChange) => void;
}

/** One item of an ordered list in a form (a step, a rotation, an override): a framed group named by its legend. */
export const ListItem = styled(FieldGroup)`
  padding: 12px 14px 14px;
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  gap: 12px;
  legend {
    margin: 0;
    font-weight: 600;
  }
  /* a select is as wide as its longest option unless told otherwise: a long schedule's name or e-mail would push it
     past its column, under the field beside it, and past a phone's dialog */
  select {
    width: 100%;
    min-width: 0;
  }
`;

/**
 * An item's fields side by side where they fit: each at the top of its column, so a field without a hint is not
 * stretched to the height of its neighbours (its control drawn taller and lower than theirs).
 */
export const ItemFields = styled(FieldRow)`
  align-items: start;
  > * {
    min-width: 0;
  }
`;

// under the legend, which must stay the fieldset's first child to name it; the buttons' words line up with it, and the
// three stay on one line on a phone
const Buttons = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 4px;
  margin: -8px 0 0 -8px;
  button {
    padding-left: 8px;
    padding-right: 8px;
  }
`;

/**
 * An item's legend ('Step 2'), the first child of its ListItem, then its Move up, Move down and Remove, each named
 * with the item for screen readers ("Move up step 2"): the order of each such list means something (steps run in
 * turn, the first rotation with someone on call wins, the later of two overlapping overrides wins). `removable`
 * false for the last item of a list that needs one.
 */
export function ItemHead({
  name,
  index,
  count,
  onChange,
  removable = true,
}: {
  name: string;
  index: number;
  count: number;
  /** the list's new order, or the list without the item */
  onChange: (change: ListChange) => void;
  removable?: boolean;
}) {
  const which = <VisuallyHidden> {name.toLowerCase()}</VisuallyHidden>;
  return (
    <>
      <legend>{name}</legend>
      <Buttons>
        <Button type="button" $variant="ghost" disabled={index === 0} onClick={() => onChange({ move: -1 })}>
          Move up{which}
        </Button>
        <Button type="button" $variant="ghost" disabled={index === count - 1} onClick={() => onChange({ move: 1 })}>
          Move down{which}
        </Button>
        <Button type="button" $variant="ghost" disabled={!removable} onClick={() => onChange({ remove: true })}>
          Remove{which}
        </Button>
      </Buttons>
    </>
  );
}

/** Applies what ItemHead asked to `list`. */
export function changedList<T>(list: readonly T[], index: number, change: ListChange): T[] {
  return 'move' in change ? moved(list, index, change.move) : list.filter((_, each) => each !== index);
}
