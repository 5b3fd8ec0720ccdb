import { Button, Muted } from '@cbh/ui';
import { reloadPage } from './reload-page';

interface EmailStepProps {
  email: string;
  sending: boolean;
  sent: boolean;
  failed: boolean;
  onResend: () => void;
}

/** The link is followed outside this page; reloading reads the (possibly elevated) auth user again. */
export function EmailStep({ email, sending, sent, failed, onResend }: EmailStepProps) {
  return (
    <>
      <Muted role="status">
        {sending
          ? `Sending a verification email to ${email}...`
          : sent
            ? `A verification email was sent to ${email}. Follow the link in it, then come back here.`
            : failed
              ? 'The verification email was not sent.'
              : null}
      </Muted>
      <div>
        {failed ? (
          <Button type="button" $variant="outline" onClick={onResend}>
            Send again
          </Button>
        ) : null}{' '}
        <Button type="button" onClick={reloadPage}>
          I&apos;ve verified via email
        </Button>
      </div>
    </>
  );
}
