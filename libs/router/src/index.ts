/**
 * The routing API of the site, shared by shell and remotes as one federation singleton.
 *
 * A shared package cannot be tree-shaken (any consumer may use any export), so sharing react-router-dom
 * itself would ship all of react-router to every visitor. Through this facade only the names below are
 * bundled. Apps import routing from here, never from react-router-dom (enforced by lint); add a name here
 * when an app needs it.
 */
export {
  BrowserRouter,
  Link,
  matchPath,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router-dom';
export type { LinkProps, NavLinkProps } from 'react-router-dom';
export { lazyPages, RoutePages, type LazyRoutePage, type RoutePage } from './RoutePages';
