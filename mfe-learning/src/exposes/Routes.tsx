import { useGetAuthUserQuery } from '@cbh/api-client';
import { ROUTES } from '@cbh/contracts';
import { lazyPage, RoutePages } from '@cbh/router';

const HomePage = lazyPage(
  () => import('../features/home/HomePage'),
  (m) => m.HomePage,
);
const LandingPage = lazyPage(
  () => import('../features/landing/LandingPage'),
  (m) => m.LandingPage,
);

function Start() {
  const { data: user } = useGetAuthUserQuery();
  return user ? <HomePage /> : <LandingPage />;
}

export const pages = [
  { path: ROUTES.home.path, Component: Start },
  {
    path: ROUTES.coreLogic.path,
    Component: lazyPage(
      () => import('../features/core-logic/CoreLogicPage'),
      (m) => m.CoreLogicPage,
    ),
  },
  {
    path: ROUTES.serviceLayer.path,
    Component: lazyPage(
      () => import('../features/service-layers/ServiceLayerPage'),
      (m) => m.ServiceLayerPage,
    ),
  },
  {
    path: ROUTES.dataAccessLayer.path,
    Component: lazyPage(
      () => import('../features/service-layers/DataAccessLayerPage'),
      (m) => m.DataAccessLayerPage,
    ),
  },
];

export default function LearningRoutes() {
  return <RoutePages pages={pages} />;
}
