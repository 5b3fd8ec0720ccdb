import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { OTP_POLL_MS, useGetOtpQuery } from '@cbh/api-client';
import { Button, FieldLabel, Fieldset, Muted, TextInput, theme } from '@cbh/ui';
import { OTP_LENGTH, OTP_PERIOD_SECONDS } from './elevation-methods';

const CurrentCode = styled.div`
  display: flex;
  align-items: center;
  gap: 16px;
  flex-wrap: wrap;
  margin-bottom: 16px;
`;

const Code = styled.output`
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 36px;
  font-weight: 700;
  letter-spacing: 0.2em;
  color: ${theme.colors.text};
`;

/** The API refuses with 403 when it is configured not to display codes; that will not change by polling. */
const isNotDisplayed = (error: unknown) => (error as { status?: unknown } | undefined)?.status === 403;

/**
 * Mounted only while the OTP verify step is shown: its subscription, and so the polling, starts when the
 * step appears and ends when it goes (Back to Methods, or the success view after elevation).
 */
export function OtpStep({ pending, onSubmit }: { pending: boolean; onSubmit: (code: string) => void }) {
  const [code, setCode] = useState('');
  const [pollingInterval, setPollingInterval] = useState(OTP_POLL_MS);
  const otp = useGetOtpQuery(undefined, { pollingInterval });
  const notDisplayed = otp.isError && isNotDisplayed(otp.error);
  if (notDisplayed && pollingInterval !== 0) setPollingInterval(0);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code && !pending) onSubmit(code);
  };

  return (
    <>
      <CurrentCode>
        {notDisplayed ? (
          <Muted role="status">
            This server does not display the current code, so this method cannot be completed here; choose another method.
          </Muted>
        ) : otp.data ? (
          <>
            <Code aria-label="Current code">{otp.data.otp}</Code>
            <Muted>Refreshes in {otp.data.timeLeft} s</Muted>
          </>
        ) : (
          <Muted role="status">{otp.isError ? 'The current code could not be loaded.' : 'Loading the current code...'}</Muted>
        )}
        {notDisplayed ? null : (
          <Button type="button" $variant="outline" onClick={() => void otp.refetch()}>
            Refresh code
          </Button>
        )}
      </CurrentCode>
      <Muted>The code refreshes every {OTP_PERIOD_SECONDS} seconds.</Muted>
      <form onSubmit={submit} aria-label="One-time code verification">
        <Fieldset>
          <FieldLabel>
            One-time code
            <TextInput
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={OTP_LENGTH}
              placeholder="000000"
              value={code}
              // The API accepts exactly six digits; anything else typed or pasted is dropped.
              onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH))}
            />
          </FieldLabel>
          <div>
            <Button type="submit" disabled={!code || pending}>
              {pending ? 'Verifying...' : 'Verify OTP'}
            </Button>
          </div>
        </Fieldset>
      </form>
    </>
  );
}
