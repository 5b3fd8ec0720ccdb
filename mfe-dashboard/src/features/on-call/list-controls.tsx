import styled from 'styled-components';
import { Button, FieldGroup, theme, VisuallyHidden } from '@cbh/ui';

/** `list` with the item at `index` moved one place up (-1) or down (1). */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const next = [...list];
  const [item] = next.splice(index, 1);
  next.splice(index + by, 0, item as T);
  return next;
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
`;

// under the legend, which must stay the fieldset's first child to name it
const Buttons = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 4px;
  margin-top: -8px;
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
  onChange: (change: { move: -1 | 1 } | { remove: true }) => void;
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
export function changedList<T>(list: readonly T[], index: number, change: { move: -1 | 1 } | { remove: true }): T[] {
  return 'move' in change ? moved(list, index, change.move) : list.filter((_, each) => each !== index);
}
