import { useState } from 'react';
import styled from 'styled-components';
import { useGetAuthUserQuery } from '@cbh/api-client';
import { Button, ButtonLink, Card, Muted, PageHeader } from '@cbh/ui';
import { AuthorizationNotice } from './AuthorizationNotice';
import { EmailStep } from './EmailStep';
import { methodName, type ElevationMethod } from './elevation-methods';
import { MasterKeyStep } from './MasterKeyStep';
import { MethodCards } from './MethodCards';
import { OtpStep } from './OtpStep';
import { useElevation } from './useElevation';

const StepCard = styled(Card)`
  display: grid;
  gap: 16px;
  h2 {
    margin: 0;
    font-size: 20px;
  }
`;

const Header = () => <PageHeader title="Privilege Elevation" description="Verify your identity to gain super admin access." />;

export function PrivilegeElevationPage() {
  const { data: user, isLoading, isError } = useGetAuthUserQuery();
  const elevation = useElevation();
  // null: step 1, choosing a method; otherwise step 2, verifying with that method.
  const [method, setMethod] = useState<ElevationMethod | null>(null);

  if (isLoading) {
    return (
      <>
        <Header />
        <Muted role="status">Loading your account...</Muted>
      </>
    );
  }

  if (!user) {
    return (
      <>
        <Header />
        <Card>
          <Muted>
            {isError ? 'Your account could not be loaded. Reload the page to try again.' : 'Sign in to elevate your privileges.'}
          </Muted>
          {isError ? null : <ButtonLink href="/api/login">Login</ButtonLink>}
        </Card>
      </>
    );
  }

  // Checked before canElevate: the refreshed auth user is super_admin by now and may no longer elevate.
  if (elevation.elevated) {
    return (
      <>
        <Header />
        <Card role="status">You now have super admin access. Redirecting...</Card>
      </>
    );
  }

  if (!user.canElevate) {
    return (
      <>
        <Header />
        <AuthorizationNotice user={user} />
      </>
    );
  }

  const choose = (chosen: ElevationMethod) => {
    setMethod(chosen);
    // The e-mail method has nothing to enter: the link is requested as soon as it is chosen.
    if (chosen === 'email_verification') void elevation.submit({ method: 'email_verification' });
  };

  return (
    <>
      <Header />
      <AuthorizationNotice user={user} />
      {method === null ? (
        <MethodCards onChoose={choose} />
      ) : (
        <StepCard aria-labelledby="elevation-step-title">
          <div>
            <Button type="button" $variant="ghost" onClick={() => setMethod(null)}>
              <span aria-hidden="true">←</span> Back to Methods
            </Button>
          </div>
          <h2 id="elevation-step-title">{methodName(method)}</h2>
          {method === 'email_verification' ? (
            <EmailStep
              email={user.email}
              sending={elevation.isLoading}
              sent={elevation.emailSent}
              failed={elevation.isError}
              onResend={() => void elevation.submit({ method: 'email_verification' })}
            />
          ) : method === 'master_key' ? (
            <MasterKeyStep
              pending={elevation.isLoading}
              onSubmit={(masterKey) => void elevation.submit({ method: 'master_key', masterKey })}
            />
          ) : (
            <OtpStep pending={elevation.isLoading} onSubmit={(code) => void elevation.submit({ method: 'time_based_otp', code })} />
          )}
        </StepCard>
      )}
    </>
  );
}
