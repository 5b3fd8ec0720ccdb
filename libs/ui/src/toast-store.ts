import { useSyncExternalStore } from 'react';
import { TOAST } from '@cbh/contracts';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  /** A link to where the reader can act on the news, e.g. the page of the breaker that opened. */
  action?: { label: string; href: string };
}
export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

let toasts: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const removalTimers = new Map<number, ReturnType<typeof setTimeout>>();

function publish(next: ToastItem[]) {
  toasts = next;
  listeners.forEach((listener) => listener());
}

/** Shows a notification; at most TOAST.limit are on screen, the newest first. */
export function toast(input: ToastInput): number {
  const id = nextId++;
  publish([{ ...input, id, open: true }, ...toasts].slice(0, TOAST.limit));
  return id;
}

/** Closes a notification; it is removed from memory after the spec's removal delay. */
export function dismissToast(id: number) {
  publish(toasts.map((t) => (t.id === id ? { ...t, open: false } : t)));
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      publish(toasts.filter((t) => t.id !== id));
    }, TOAST.removeDelayMs),
  );
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}
