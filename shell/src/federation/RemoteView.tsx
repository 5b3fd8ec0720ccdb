import { Component, lazy, Suspense, useMemo, useRef, useState, type ErrorInfo, type ReactNode } from 'react';
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

/** Renders a remote's routes component inside an error boundary with a fallback card and Retry. */
export function RemoteView({ remote, load, reset }: RemoteViewProps) {
  const [attempt, setAttempt] = useState(0);
  // whether this attempt's build loaded: what the boundary catches after that is the remote's own error after render
  const loaded = useRef(false);
  // A new lazy component per attempt, so Retry really loads again.
  const Routes = useMemo(
    () =>
      lazy(async () => {
        loaded.current = false;
        const module = await load(remote);
        loaded.current = !module.unavailable;
        return module;
      }),
    [remote, load, attempt],
  );
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
      <Suspense fallback={<Loading role="status">Loading…</Loading>}>
        <Routes />
      </Suspense>
    </RemoteBoundary>
  );
}
