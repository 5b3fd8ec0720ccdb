export class RemoteUnavailableError extends Error {
  constructor(
    readonly remoteId: string,
    cause: unknown,
  ) {
    super(`${remoteId} could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'RemoteUnavailableError';
  }
}

export class RemoteTimeoutError extends Error {
  constructor(
    readonly remoteId: string,
    timeoutMs: number,
  ) {
    super(`${remoteId} did not answer within ${timeoutMs / 1000} s`);
    this.name = 'RemoteTimeoutError';
  }
}
