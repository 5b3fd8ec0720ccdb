/** What `cbh` exits with; the README's table documents them. */
export const EXIT = {
  /** Done; for diff: the hub already matches the document. */
  ok: 0,
  /** Nothing or not everything was done: a refusal, an unreachable hub, a bad document or bad arguments. */
  failed: 1,
  /** diff only: applying the document would change the hub. */
  changes: 2,
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
