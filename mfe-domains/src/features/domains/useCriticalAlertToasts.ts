import { useCallback } from 'react';
import { useLiveMessages } from '@cbh/api-client';
import { DOMAIN_ALERT_TYPE_LABELS, type ServerMessage } from '@cbh/contracts';
import { toast } from '@cbh/ui';

/**
 * While the domain screen is open, a critical alert that has just opened is also told in a toast. The tables
 * and figures themselves follow every domainAlert, domainUpdated and domainsChecked through the shared cache (live.ts).
 */
export function useCriticalAlertToasts() {
  const listener = useCallback((message: ServerMessage) => {
    if (message.type !== 'domainAlert') return;
    const { alert, domain } = message.data;
    if (alert.status !== 'open' || alert.severity !== 'critical') return;
    toast({
      title: `Critical alert: ${DOMAIN_ALERT_TYPE_LABELS[alert.alertType] ?? alert.alertType}`,
      description: `${domain}: ${alert.message}`,
      variant: 'destructive',
    });
  }, []);
  useLiveMessages(listener);
}
