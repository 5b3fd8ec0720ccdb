/*
 * The controls that change a breaker or drive it: the settings sliders and the load-test panel. An entry of their own
 * (@cbh/breaker-widgets/controls), shared as its own singleton: a breaker's page, which only shows a breaker, and the
 * wall do not download them; the create and load-test pages and the learning page do.
 */
export * from './BreakerSettingsSliders';
export * from './LoadTestPanel';
