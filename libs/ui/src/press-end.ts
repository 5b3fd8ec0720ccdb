/** What ends a press, wherever it happens: its click, or its cancellation by a drag, a context menu or leaving the window. */
const PRESS_ENDS = ['click', 'pointercancel', 'dragstart', 'contextmenu', 'blur'] as const;
/** How long after the pointer is lifted a press ends at the latest: a touch's click comes in a later task, or never. */
const CLICK_WAIT_MS = 500;

/**
 * Calls `ended` once the press under way is over, in a task after the one that ended it (the click's own listeners
 * have run by then). Returns a cancel, for a trigger unmounted mid-press: nothing is called then.
 */
export function whenPressEnds(ended: () => void): () => void {
  let fallback: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    for (const type of PRESS_ENDS) window.removeEventListener(type, end, true);
    window.removeEventListener('pointerup', lifted, true);
    clearTimeout(fallback);
  };
  function end() {
    stop();
    fallback = setTimeout(ended);
  }
  function lifted() {
    clearTimeout(fallback);
    fallback = setTimeout(end, CLICK_WAIT_MS);
  }
  for (const type of PRESS_ENDS) window.addEventListener(type, end, true);
  window.addEventListener('pointerup', lifted, true);
  return stop;
}
