/** What the drills' pages say to someone who may not use them: a drill hurts real traffic, so it is an admin's tool. */
export const DRILLS_ACCESS = {
  what: 'resilience drills',
  noAccessText: 'You need the circuit_breaker_admin permission to run resilience drills.',
};
