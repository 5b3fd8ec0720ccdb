/** Live figures are averaged over replicas and windows, so they carry fractions: one decimal is enough to read. */
export const oneDecimal = (value: number) => Math.round(value * 10) / 10;
