import { useGetAuthUserQuery } from '@cbh/api-client';
import { ROUTES } from '@cbh/contracts';
import { RoutePages } from '@cbh/router';
import { CoreLogicPage } from '../features/core-logic/CoreLogicPage';
import { HomePage } from '../features/home/HomePage';
import { LandingPage } from '../features/landing/LandingPage';
import { DataAccessLayerPage } from '../features/service-layers/DataAccessLayerPage';
import { ServiceLayerPage } from '../features/service-layers/ServiceLayerPage';

function Start() {
  const { data: user } = useGetAuthUserQuery();
  return user ? <HomePage /> : <LandingPage />;
}

export const pages = [
  { path: ROUTES.home.path, Component: Start },
  { path: ROUTES.coreLogic.path, Component: CoreLogicPage },
  { path: ROUTES.serviceLayer.path, Component: ServiceLayerPage },
  { path: ROUTES.dataAccessLayer.path, Component: DataAccessLayerPage },
];

export default function LearningRoutes() {
  return <RoutePages pages={pages} />;
}
