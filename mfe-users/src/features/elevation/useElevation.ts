import { useEffect, useState } from 'react';
import { apiErrorMessage, useElevateMutation } from '@cbh/api-client';
import { ROUTES, type ElevationRequest } from '@cbh/contracts';
import { useNavigate } from '@cbh/router';
import { toast } from '@cbh/ui';
import { ELEVATION_TOASTS, REDIRECT_AFTER_SUCCESS_MS } from './elevation-methods';

function failureMessage(error: unknown): string {
  const message = apiErrorMessage(error);
  if (message) return message;
  return (error as { status?: unknown } | undefined)?.status === 429 ? ELEVATION_TOASTS.tooManyFallback : ELEVATION_TOASTS.failureFallback;
}

function toastFailure(description: string) {
  toast({ title: ELEVATION_TOASTS.failureTitle, description, variant: 'destructive' });
}

/**
 * Sends an elevation request and reports its outcome. Lives in the page, not in a step, so the redirect
 * timer survives the re-render that follows success (the refreshed auth user no longer may elevate).
 */
export function useElevation() {
  const navigate = useNavigate();
  const [elevate, { isLoading, data, isError }] = useElevateMutation();
  const [elevated, setElevated] = useState(false);

  useEffect(() => {
    if (!elevated) return;
    const timer = setTimeout(() => navigate(ROUTES.home.path), REDIRECT_AFTER_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [elevated, navigate]);

  const submit = async (request: ElevationRequest) => {
    try {
      const result = await elevate(request).unwrap();
      if (result.success) {
        toast(ELEVATION_TOASTS.success);
        setElevated(true);
      } else if (!result.pending) {
        // Not elevated and nothing on its way: the API's answer says why.
        toastFailure(result.message || ELEVATION_TOASTS.failureFallback);
      }
    } catch (error) {
      toastFailure(failureMessage(error));
    }
  };

  return { submit, isLoading, emailSent: Boolean(data?.pending) && !isLoading, isError: isError && !isLoading, elevated };
}
