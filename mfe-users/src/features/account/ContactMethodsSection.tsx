import { useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useDeleteContactMethodMutation, useGetContactMethodsQuery } from '@cbh/api-client';
import { CHANNEL_TYPE_LABELS, CONTACT_METHODS_PER_PERSON, type ContactMethodView } from '@cbh/contracts';
import {
  Badge,
  Button,
  Card,
  Muted,
  ResponsiveTable,
  SectionTitle,
  SpreadRow,
  theme,
  VisuallyHidden,
  When,
  type TableColumn,
} from '@cbh/ui';
import { ConfirmActionDialog } from '../shared/ConfirmActionDialog';
import { AddContactMethodDialog } from './AddContactMethodDialog';

const Intro = styled(Muted)`
  margin-bottom: 12px;
`;

const Kind = styled.span`
  display: inline-flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
`;

const Target = styled.span`
  overflow-wrap: anywhere;
`;

/** A contact method's name in words: its type, then its label or, without one, where it goes. */
const nameOf = (method: ContactMethodView) => `${CHANNEL_TYPE_LABELS[method.type]} ${method.label || method.target}`;

const COLUMNS: readonly TableColumn<ContactMethodView>[] = [
  {
    header: 'Type',
    cell: (method) => (
      <Kind>
        {CHANNEL_TYPE_LABELS[method.type]}
        {method.type === 'email' ? <Badge $color={theme.colors.success}>Verified</Badge> : null}
      </Kind>
    ),
  },
  { header: 'Label', cell: (method) => method.label || '—' },
  // the e-mail address, or a channel's host: its URL holds the credentials and never comes back
  { header: 'Sends to', cell: (method) => <Target>{method.target}</Target> },
  { header: 'Added', cell: (method) => (method.createdAt ? <When at={method.createdAt} /> : '—'), priority: 3, nowrap: true },
];

/**
 * How an escalation reaches the person: their verified e-mail first (it is their account's, changed nowhere here), then
 * the channels of their own they add (Slack, Discord, a webhook), at most CONTACT_METHODS_PER_PERSON, removed one by one.
 */
export function ContactMethodsSection() {
  const methods = useGetContactMethodsQuery();
  const [remove, removing] = useDeleteContactMethodMutation();
  const [confirming, setConfirming] = useState<ContactMethodView | null>(null);
  const own = methods.data?.filter((method) => method.type !== 'email').length ?? 0;
  const full = own >= CONTACT_METHODS_PER_PERSON;

  return (
    <Card aria-labelledby="contact-methods-title">
      <SpreadRow $below={12}>
        <SectionTitle id="contact-methods-title">Contact methods</SectionTitle>
        <AddContactMethodDialog disabled={!methods.data || full} />
      </SpreadRow>
      <Intro>
        When an escalation names you, or a schedule you are on, it reaches you at each of these: your e-mail always, and the channels you
        add (at most {CONTACT_METHODS_PER_PERSON}).
      </Intro>
      {methods.data ? (
        <>
          <ResponsiveTable
            region
            label="Your contact methods"
            rows={methods.data}
            rowKey={(method) => method.id}
            columns={COLUMNS}
            inline={(method) =>
              method.type === 'email' ? (
                <Muted as="span" title="Your account's e-mail: it changes with your account, not here">
                  Read-only
                </Muted>
              ) : (
                <Button type="button" $variant="outline" onClick={() => setConfirming(method)}>
                  Remove<VisuallyHidden> {nameOf(method)}</VisuallyHidden>
                </Button>
              )
            }
            empty="No contact methods yet."
          />
          {full ? (
            <Muted role="status">
              You have {CONTACT_METHODS_PER_PERSON} channels of your own, the most there may be: remove one to add another.
            </Muted>
          ) : null}
        </>
      ) : methods.isError ? (
        <Muted role="alert">The contact methods could not be loaded. {apiErrorMessage(methods.error) ?? ''}</Muted>
      ) : (
        <Muted role="status">Loading contact methods…</Muted>
      )}
      {confirming ? (
        <ConfirmActionDialog
          title="Remove contact method"
          description={`Remove ${CHANNEL_TYPE_LABELS[confirming.type]} ${confirming.label ? `‘${confirming.label}’ ` : ''}(${confirming.target})? Escalations no longer reach you there.`}
          confirmLabel="Remove"
          pendingLabel="Removing..."
          pending={removing.isLoading}
          run={async () => {
            await remove(confirming.id).unwrap();
            return { title: 'Contact Method Removed', description: `${nameOf(confirming)} is no longer reached by escalations.` };
          }}
          failure={(error) => apiErrorMessage(error) ?? 'Failed to remove the contact method.'}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </Card>
  );
}
