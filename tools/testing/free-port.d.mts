/** This process's range of ports (see free-port.mjs), or null when the kernel's range leaves too little below it. */
export declare function rangeOf(env: NodeJS.ProcessEnv, kernelsFirst?: number): { first: number; size: number } | null;
/** A loopback port nobody listens on right now, below the kernel's own range (see free-port.mjs). */
export declare function freePort(): Promise<number>;
