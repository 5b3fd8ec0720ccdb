import { useCallback, useRef } from 'react';
import { useGetBreakersQuery, useLiveMessages } from '@cbh/api-client';
import { breakerPath, type ServerMessage } from '@cbh/contracts';
import { toast } from '@cbh/ui';
import { throttleOpenToast } from './open-toast-throttle';

/**
 * For the operators (circuit_breaker_operate), wherever they are in the site: a breaker that opens is told in a
 * destructive toast linking to its page, at most once per breaker per 30 s. Renders nothing.
 */
export function OpenBreakerToasts({ userId }: { userId: string }) {
  const { data: breakers } = useGetBreakersQuery();
  const shown = useRef<ReadonlyMap<number, number>>(new Map());
  const listener = useCallback(
    (message: ServerMessage) => {
      if (message.type !== 'stateChange' || message.data.to !== 'OPEN') return;
      const { configId, reason, actorId } = message.data;
      // one's own force-open is news to the others only: the page it was done on confirms it already (told by the
      // account's id: the reason names people by name or role, which others may share)
      if (actorId === userId) return;
      const next = throttleOpenToast(shown.current, configId, Date.now());
      if (!next) return;
      shown.current = next;
      const name = breakers?.find((breaker) => breaker.id === configId)?.name ?? `#${configId}`;
      toast({
        title: `Circuit breaker opened: ${name}`,
        description: `Calls through it are refused (${reason}).`,
        variant: 'destructive',
        action: { label: 'View breaker', href: breakerPath(configId) },
      });
    },
    [breakers, userId],
  );
  useLiveMessages(listener);
  return null;
}
