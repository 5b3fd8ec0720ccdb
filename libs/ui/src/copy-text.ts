import { useEffect, useState } from 'react';

const COPIED_FOR_MS = 2000;

/** The clipboard API needs a secure context; elsewhere the selected text of `input` is copied the old way. */
async function copyText(text: string, input: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input?.select();
    return typeof document.execCommand === 'function' && document.execCommand('copy');
  }
}

/**
 * A Copy button for a read-only field: `copy` copies `text`, and the button's `label` says for a moment whether it
 * did ('Copied') or the person must select and copy it by hand.
 */
export function useCopyText(text: string, input: { readonly current: HTMLInputElement | null }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => setState((await copyText(text, input.current)) ? 'copied' : 'failed');
  const label = state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy' : 'Copy';
  return { copy, label };
}
