import { useGetAuthUserQuery } from '@cbh/api-client';
import { RoutePages } from '@cbh/ui';
import { CoreLogicPage } from '../features/core-logic/CoreLogicPage';
import { HomePage } from '../features/home/HomePage';
import { LandingPage } from '../features/landing/LandingPage';
import { DataAccessLayerPage } from '../features/service-layers/DataAccessLayerPage';
import { ServiceLayerPage } from '../features/service-layers/ServiceLayerPage';

function Start() {
  const { data: user } = useGetAuthUserQuery();
  return user ? <HomePage /> : <LandingPage />;
}

const pages = [
  { path: '/', Component: Start },
  { path: '/core-logic', Component: CoreLogicPage },
  { path: '/services/core', Component: ServiceLayerPage },
  { path: '/services/data-access', Component: DataAccessLayerPage },
];

export default function LearningRoutes() {
  return <RoutePages pages={pages} />;
}
