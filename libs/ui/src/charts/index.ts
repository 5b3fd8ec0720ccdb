// Charts on uPlot, kept apart from the main entry: the shell never draws one, and the remotes that do share
// this entry as one federation singleton, so uPlot is fetched once however many remotes a visit opens.
export * from './TimeSeriesChart';
