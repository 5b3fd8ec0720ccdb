import { useEffect, useSyncExternalStore } from 'react';
import type { ServerMessage } from '@cbh/contracts';
import { WS_PATH, WS_SIGNED_OUT_CLOSE } from '@cbh/contracts';
import { api, type AppDispatch } from './api';
import { breakersApi } from './breakers';

/** An attempt to connect that failed is made again in 3 s… */
export const RECONNECT_DELAY_MS = 3000;
/**
 * …but a connection that was open and is lost (its replica died; a proxy sends the next attempt to another one) is
 * made again within this, at a random moment so a dead replica's thousands of clients do not arrive at once…
 */
export const LOST_RECONNECT_MAX_MS = 1000;
/** …and at once when the server said it is going away (a replica shutting down: another one answers). */
export const GOING_AWAY = 1001;

type Listener = (message: ServerMessage) => void;

interface SocketLike {
  onopen: (() => void) | null;
  onclose: ((event?: { code?: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  close(): void;
}

/**
 * The site's one /ws connection: wss on https pages, every message handed to the subscribers; it reconnects at once
 * after a going-away close, within a second after losing an open connection, and every 3 s while attempts fail.
 * A message that is not JSON is logged and ignored.
 */
export class LiveConnection {
  private socket: SocketLike | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private connectedNow = false;
  private readonly listeners = new Set<Listener>();
  private readonly statusListeners = new Set<() => void>();
  private readonly signedOutListeners = new Set<() => void>();

  constructor(
    private readonly url: () => string,
    private readonly open: (url: string) => SocketLike = (url) => new WebSocket(url) as unknown as SocketLike,
    private readonly random: () => number = Math.random,
  ) {}

  get connected() {
    return this.connectedNow;
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  stop() {
    this.running = false;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.socket?.close();
    this.socket = null;
    this.setConnected(false);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private connect() {
    const socket = this.open(this.url());
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.setConnected(true);
    };
    socket.onerror = (event) => console.error('[live] connection error', event);
    socket.onmessage = (event) => {
      let message: ServerMessage;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        console.warn('[live] ignored a message that is not JSON', event.data);
        return;
      }
      this.listeners.forEach((listener) => listener(message));
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.setConnected(false);
      if (event?.code === WS_SIGNED_OUT_CLOSE) this.signedOutListeners.forEach((listener) => listener());
      if (!this.running) return;
      const delay = event?.code === GOING_AWAY ? 0 : opened ? Math.round(this.random() * LOST_RECONNECT_MAX_MS) : RECONNECT_DELAY_MS;
      this.retry = setTimeout(() => this.connect(), delay);
    };
  }

  /** Called when the server closes the socket because its session or token ended (WS_SIGNED_OUT_CLOSE). */
  onSignedOut(listener: () => void): () => void {
    this.signedOutListeners.add(listener);
    return () => this.signedOutListeners.delete(listener);
  }

  private setConnected(connected: boolean) {
    if (this.connectedNow === connected) return;
    this.connectedNow = connected;
    this.statusListeners.forEach((listener) => listener());
  }
}

export const liveUrl = () => `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${WS_PATH}`;

/** The connection shared by shell and remotes (this library is a federation singleton). */
export const liveConnection = new LiveConnection(liveUrl);

/** What the cached data should refetch when a live message says it changed. */
export function invalidationFor(message: ServerMessage) {
  switch (message.type) {
    case 'metricsUpdate':
      // its figures are written in place (applyLiveData); an open breaker page's instance table is read with them
      return api.util.invalidateTags(['BreakerInstances']);
    case 'stateChange':
      // a status page's components take their state from their breakers
      return api.util.invalidateTags(['Metrics', { type: 'Journal', id: message.data.configId }, 'StatusPages']);
    case 'configUpdated':
      return api.util.invalidateTags(['Breakers', { type: 'Journal', id: message.data.configId }]);
    case 'serviceUpdated':
      return api.util.invalidateTags(['Services']);
    case 'userChanged':
      // the users and service accounts lists for managers; the account itself for the one whose role or permissions changed
      return api.util.invalidateTags(['Users', 'ServiceAccounts', 'Audit', 'AuthUser']);
    case 'domainUpdated':
    case 'domainAlert':
      // … and from their domains
      return api.util.invalidateTags(['Domains', 'StatusPages']);
    case 'domainsChecked':
      // rounds that only added a check: the monitoring list and open details, not every list
      return api.util.invalidateTags(['DomainChecks']);
    case 'alertGroupChanged':
      // the lists, the counts, the group's own page, and a breaker's page that shows what quiets it
      return api.util.invalidateTags(['AlertGroups']);
    case 'drillChanged':
      // the list, the wall's marks of breakers under a running drill, and every drill's page (its steps, expectations, timeline)
      return api.util.invalidateTags(['Drills']);
    default:
      return null;
  }
}

/**
 * Messages that carry the data itself update the cache in place, with no request: metricsUpdate replaces the
 * latest metrics (the cluster's figures, every 2 s), and stateChange moves one breaker's state at once, before
 * the next metricsUpdate, so an opening breaker shows red immediately.
 */
export async function applyLiveData(message: ServerMessage, dispatch: AppDispatch): Promise<void> {
  if (message.type === 'metricsUpdate') {
    // Replaced in place, synchronously, when the entry exists: the screens re-render once, together with what
    // else the message changed in the same task. Only a first message goes through the (asynchronous) upsert.
    const patched = dispatch(
      breakersApi.util.updateQueryData('getLatestMetrics', undefined, (draft) => {
        draft.stats = message.data.stats;
      }),
    );
    if (patched.patches.length === 0) await dispatch(breakersApi.util.upsertQueryData('getLatestMetrics', undefined, message.data));
  } else if (message.type === 'stateChange') {
    const { configId, to, at } = message.data;
    dispatch(
      breakersApi.util.updateQueryData('getLatestMetrics', undefined, (draft) => {
        const entry = draft.stats.find((stats) => stats.configId === configId);
        if (!entry) return;
        entry.state = to;
        entry.lastTransitionAt = at;
      }),
    );
  }
}

type Invalidation = NonNullable<ReturnType<typeof invalidationFor>>;

/**
 * A refetch asked for by live messages happens at once, then at most once per window: with several replicas and
 * many domains, checks and alerts arrive many times a second, and what arrives within a window is refetched once
 * at its end.
 */
export const LIVE_REFRESH_WINDOW_MS = 1000;

export function coalescing(dispatch: (action: Invalidation) => unknown, windowMs = LIVE_REFRESH_WINDOW_MS) {
  const windows = new Map<string, { timer: ReturnType<typeof setTimeout>; pending: Invalidation | null }>();
  const send = (action: Invalidation) => {
    const key = JSON.stringify(action.payload);
    const open = windows.get(key);
    if (open) {
      open.pending = action;
      return;
    }
    dispatch(action);
    const window = {
      pending: null as Invalidation | null,
      timer: setTimeout(() => {
        windows.delete(key);
        if (window.pending) send(window.pending);
      }, windowMs),
    };
    windows.set(key, window);
  };
  const stop = () => {
    windows.forEach((window) => clearTimeout(window.timer));
    windows.clear();
  };
  return { send, stop };
}

/** Runs the shared connection while `enabled` (signed in); returns whether it is connected now. */
export function useLiveConnection(enabled: boolean, dispatch: AppDispatch): boolean {
  useEffect(() => {
    if (!enabled) return;
    const refresh = coalescing(dispatch);
    const unsubscribe = liveConnection.subscribe((message) => {
      void applyLiveData(message, dispatch);
      const action = invalidationFor(message);
      if (action) refresh.send(action);
    });
    // After a reconnection, what changed while offline is read again: no message said so.
    let wasConnected = false;
    const unwatch = liveConnection.onStatus(() => {
      if (liveConnection.connected && wasConnected) dispatch(api.util.invalidateTags(['Metrics', 'Breakers', 'Journal']));
      if (liveConnection.connected) wasConnected = true;
    });
    // a session ended elsewhere ("sign out everywhere else", a manager, expiry): the page asks who is signed in, and
    // shows itself signed out at once rather than at its next request
    const unwatchSignOut = liveConnection.onSignedOut(() => dispatch(api.util.invalidateTags(['AuthUser'])));
    liveConnection.start();
    return () => {
      unwatchSignOut();
      unwatch();
      unsubscribe();
      refresh.stop();
      liveConnection.stop();
    };
  }, [enabled, dispatch]);
  return useSyncExternalStore(
    (listener) => liveConnection.onStatus(listener),
    () => liveConnection.connected,
  );
}

/** Subscribes a component to live messages of the shared connection. */
export function useLiveMessages(listener: Listener) {
  useEffect(() => liveConnection.subscribe(listener), [listener]);
}
