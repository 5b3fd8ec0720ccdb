import { startFirstRequests } from './first-requests';

// The page's first requests leave now, before the shared packages and the app's code arrive (see first-requests.ts).
startFirstRequests();
// The async boundary lets the federation runtime negotiate shared modules before any of them runs. It starts in a
// task of its own: with the evaluation of this chunk and the runtime's start it made one task of 60–110 ms.
setTimeout(() => import('./bootstrap'), 0);
