/** What `cbh` exits with; the README's table documents them. */
export const EXIT = {
  /** Done; for diff: the hub already matches the document. */
  ok: 0,
  /** Nothing or not everything was done: a refusal, an unreachable hub, a bad document or bad arguments. */
  failed: 1,
  /** diff only: applying the document would change the hub. */
  changes: 2,
} as const;

/**
 * What `cbh drill run` exits with: a CI job must tell a drill whose expectation failed (1) from one that could not be
 * run or followed (2), so that only the first reads as "the breakers did not react as planned".
 */
export const DRILL_EXIT = {
  /** Started (without --wait), or every expectation held. */
  met: 0,
  /** An expectation did not hold. */
  missed: 1,
  /** A bad file or arguments, a refusal, an unreachable hub. */
  error: 2,
  /** Interrupted while following it, after stopping the drill: 128 + the signal's number, as shells report it. */
  SIGINT: 130,
  SIGTERM: 143,
} as const;

/** A failure the person running the command can act on: printed on stderr as it is, without a stack trace. */
export class CliError extends Error {}

/** A refusal by the hub, with its status and its own message, so a command can say more about the ones it expects. */
export class HubRefusal extends CliError {
  constructor(
    message: string,
    readonly status: number,
    readonly hubMessage: string,
  ) {
    super(message);
  }
}

/** No answer from the hub at all (refused, unknown host, timed out): worth asking again while following a drill. */
export class HubUnreachable extends CliError {}
