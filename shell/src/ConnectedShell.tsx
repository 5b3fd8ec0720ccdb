import { useMemo } from 'react';
import { Provider, useDispatch } from 'react-redux';
import { Route, Routes } from '@cbh/router';
import { api, createAppStore, useGetAuthUserQuery, useLiveConnection } from '@cbh/api-client';
import { canOpen, hasPermission, ROUTES } from '@cbh/contracts';
import { FullScreenSpinner } from '@cbh/ui';
import { FiringAlertGroupsCount } from './chrome/FiringAlertGroupsCount';
import { OpenBreakersCount } from './chrome/OpenBreakersCount';
import { OpenBreakerToasts } from './chrome/OpenBreakerToasts';
import { ShellFrame } from './chrome/ShellFrame';
import { TopBar } from './chrome/TopBar';
import { loadRemoteRoutes, resetRemote } from './federation/remotes';
import { RemoteView } from './federation/RemoteView';
import { NotFoundPage } from './routing/NotFoundPage';
import type { ShellEntryProps, ShellProps } from './shell-props';

function Shell({ manifest, load = loadRemoteRoutes, reset = resetRemote }: ShellProps) {
  const { data: user, isLoading } = useGetAuthUserQuery();
  const live = useLiveConnection(Boolean(user), useDispatch());
  if (isLoading) return <FullScreenSpinner label="Checking your session" />;

  return (
    <ShellFrame
      topBar={
        <TopBar
          user={user ?? null}
          live={live}
          openBreakers={user ? <OpenBreakersCount canView={canOpen(user, ROUTES.breakers)} /> : null}
          firingAlertGroups={
            user ? <FiringAlertGroupsCount canAct={hasPermission(user, 'circuit_breaker_operate') && canOpen(user, ROUTES.onCall)} /> : null
          }
        />
      }
    >
      {user && hasPermission(user, 'circuit_breaker_operate') ? <OpenBreakerToasts userId={user.id} /> : null}
      <Routes>
        {manifest.remotes.flatMap((remote) =>
          remote.routes.map((path) => (
            <Route key={path} path={path} element={<RemoteView key={remote.name} remote={remote} load={load} reset={reset} />} />
          )),
        )}
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </ShellFrame>
  );
}

/**
 * The shell with the store: every remote's route, and every signed-in page. Loaded on first need (see App), with
 * the account the session probe found already in the store, so it is not asked for twice.
 */
export default function ConnectedShell({ session, store: givenStore, ...props }: ShellEntryProps) {
  const store = useMemo(() => {
    const created = givenStore ?? createAppStore();
    if (session !== undefined)
      created.dispatch(api.util.upsertQueryEntries([{ endpointName: 'getAuthUser', arg: undefined, value: session }]));
    return created;
  }, [givenStore]);
  return (
    <Provider store={store}>
      <Shell {...props} />
    </Provider>
  );
}
