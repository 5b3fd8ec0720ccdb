import { cloneElement, useEffect, useRef, useState, type FocusEvent, type PointerEvent, type ReactElement, type ReactNode } from 'react';
import { TOOLTIP } from '@cbh/contracts';
import { onDemand } from './on-demand';
import { whenPressEnds } from './press-end';
import type { TooltipInterest } from './TooltipPopup';

// Radix Tooltip is fetched when a visitor first points at or focuses a trigger, not with the page. Until then a
// trigger is its bare child; the popup it becomes opens as Radix would have: after the delay for a pointer (the
// download counts towards it), at once for keyboard focus, not at all for a click.
const tooltipPopup = onDemand(() => import(/* webpackChunkName: "tooltip-popup" */ './TooltipPopup'), 'tooltips');

type TriggerProps = {
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
};

export interface TooltipProps {
  content: ReactNode;
  side?: 'top' | 'right' | 'bottom' | 'left';
  /** The trigger: one element that takes pointer and focus handlers (a link, a button, a focusable span). */
  children: ReactElement<TriggerProps>;
}

/** Names its trigger on hover (after TOOLTIP.delayMs) and on keyboard focus. */
export function Tooltip({ content, side = 'top', children }: TooltipProps) {
  const popup = tooltipPopup.use();
  const [interest, setInterest] = useState<{ via: TooltipInterest; since: number } | null>(null);
  const [delayOver, setDelayOver] = useState(false);
  // a press under way: the bare trigger stays until its click has been dispatched (see onPointerDown)
  const [pressed, setPressed] = useState(false);
  const pointerDown = useRef(false);
  const cancelPress = useRef<(() => void) | null>(null);
  useEffect(() => () => cancelPress.current?.(), []);

  useEffect(() => {
    if (interest?.via !== 'pointer') return undefined;
    const timer = setTimeout(() => setDelayOver(true), Math.max(0, interest.since + TOOLTIP.delayMs - performance.now()));
    return () => clearTimeout(timer);
  }, [interest]);

  // a pointer still in its delay keeps the bare trigger, whose pointerleave tells whether to open at the end
  if (popup && !pressed && (interest?.via !== 'pointer' || delayOver)) {
    return (
      <popup.TooltipPopup content={content} side={side} openedBy={interest?.via}>
        {children}
      </popup.TooltipPopup>
    );
  }

  const own = children.props;
  const interested = (via: TooltipInterest) => {
    setDelayOver(false);
    setInterest({ via, since: performance.now() });
    void tooltipPopup.load();
  };
  return cloneElement(children, {
    onPointerEnter: (event) => {
      own.onPointerEnter?.(event);
      if (event.pointerType !== 'touch') interested('pointer');
    },
    onPointerLeave: (event) => {
      own.onPointerLeave?.(event);
      setInterest(null);
    },
    onPointerDown: (event) => {
      own.onPointerDown?.(event);
      // as in Radix: a press closes the tooltip, and the focus that comes with it opens none. The popup's trigger
      // replaces this element when it takes over: done between the press and its click, the click would land on
      // neither (a link pressed as the code arrived would not be followed), so the swap waits until the click's
      // task is over.
      cancelPress.current?.();
      pointerDown.current = true;
      setPressed(true);
      cancelPress.current = whenPressEnds(() => {
        cancelPress.current = null;
        pointerDown.current = false;
        setPressed(false);
      });
      setInterest(null);
    },
    onFocus: (event) => {
      own.onFocus?.(event);
      if (!pointerDown.current) interested('focus');
    },
    onBlur: (event) => {
      own.onBlur?.(event);
      setInterest(null);
    },
  });
}
