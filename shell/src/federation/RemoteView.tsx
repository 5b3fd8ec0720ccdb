import { Component, startTransition, useLayoutEffect, useRef, useState, type ErrorInfo, type ReactNode } from 'react';
import styled from 'styled-components';
import { Button, Card, Muted } from '@cbh/ui';
import type { RemoteDescriptor } from '@cbh/contracts';
import { reportErrorAfterRender } from './after-render-errors';
import type { RoutesModule } from './remotes';

const Loading = styled(Muted)`
  padding: 24px 0;
`;

const FallbackCard = styled(Card)`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: 12px;
  h2 {
    margin: 0;
    font-size: 20px;
  }
  pre {
    margin: 8px 0 0;
    white-space: pre-wrap;
    font-size: 12px;
  }
  summary {
    cursor: pointer;
    font-size: 14px;
  }
`;

interface BoundaryProps {
  title: string;
  onRetry: () => void;
  onError: (error: Error) => void;
  children: ReactNode;
}

class RemoteBoundary extends Component<BoundaryProps, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`[shell] ${this.props.title} failed`, error, info.componentStack);
    this.props.onError(error);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <FallbackCard role="alert" data-testid="remote-fallback">
        <h2>This part of the site is unavailable</h2>
        <Muted>The {this.props.title} screens could not be loaded. The rest of the site keeps working; try again in a moment.</Muted>
        <Muted as="details">
          <summary>Technical details</summary>
          <pre>{this.state.error.message}</pre>
        </Muted>
        <Button
          onClick={() => {
            this.setState({ error: null });
            this.props.onRetry();
          }}
        >
          Retry
        </Button>
      </FallbackCard>
    );
  }
}

export function displayName(remote: RemoteDescriptor) {
  return remote.name.replace(/^mfe_/, '').replace(/_/g, ' ');
}

interface RemoteViewProps {
  remote: RemoteDescriptor;
  load: (remote: RemoteDescriptor) => Promise<RoutesModule>;
  reset: (remote: RemoteDescriptor) => void;
}

/** A load's outcome, so that a failed load is thrown where the remote's boundary catches it. */
type Outcome = { attempt: number } & ({ module: RoutesModule } | { error: unknown });

function Rethrow({ error }: { error: unknown }): never {
  throw error;
}

/**
 * Renders a remote's routes component inside an error boundary with a fallback card and Retry.
 *
 * The routes component is held in state once its load settles, not behind React.lazy and Suspense: React shows a
 * boundary's content no sooner than 300 ms after it last showed a fallback (its suspense throttling), so a page whose
 * remote arrived 50 ms after "Loading…" was painted waited a quarter of a second more for its largest text. A state
 * update commits as soon as it is rendered; it is a transition, so React renders the remote's page in slices that
 * yield to the browser rather than in one task (a page's first render was a 50–80 ms task).
 */
export function RemoteView({ remote, load, reset }: RemoteViewProps) {
  const [attempt, setAttempt] = useState(0);
  // whether this attempt's build loaded: what the boundary catches after that is the remote's own error after render
  const loaded = useRef(false);
  const [outcome, setOutcome] = useState<Outcome>();
  // this attempt's load: started once the view is committed, not as it renders (React may throw a render away and
  // start it again, a route change being a transition), and kept across the effect's runs: a Suspense boundary above
  // that hides the view for a moment runs its layout effects again when it shows it. Each load is counted (the
  // release screen's figures, a canary's verdict), so one per attempt — and a new one per attempt, so Retry loads again
  const started = useRef<{ remote: RemoteDescriptor; load: RemoteViewProps['load']; attempt: number; loading: Promise<RoutesModule> }>(
    undefined,
  );
  // in the commit, before the page is painted
  useLayoutEffect(() => {
    const now = started.current;
    if (now?.remote !== remote || now.load !== load || now.attempt !== attempt) {
      loaded.current = false;
      started.current = { remote, load, attempt, loading: load(remote) };
    }
    let current = true;
    started.current!.loading.then(
      (module) => {
        if (!current) return;
        loaded.current = !module.unavailable;
        startTransition(() => setOutcome({ attempt, module }));
      },
      (error: unknown) => current && setOutcome({ attempt, error }),
    );
    return () => {
      current = false;
    };
  }, [remote, load, attempt]);
  const settled = outcome?.attempt === attempt ? outcome : undefined;
  let content: ReactNode = <Loading role="status">Loading…</Loading>;
  if (settled && 'error' in settled) content = <Rethrow error={settled.error} />;
  else if (settled) content = <settled.module.default />;
  return (
    <RemoteBoundary
      key={attempt}
      title={displayName(remote)}
      onError={(error) => {
        if (loaded.current) reportErrorAfterRender(remote.name, error);
      }}
      onRetry={() => {
        reset(remote);
        setAttempt((n) => n + 1);
      }}
    >
      {content}
    </RemoteBoundary>
  );
}
