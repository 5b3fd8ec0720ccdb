/** The on-call context's public face (see README.md): being built. */
export { onCallAt } from './on-call-at';
