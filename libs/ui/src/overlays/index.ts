// Overlays and form controls on Radix primitives, kept apart from the main entry so the shell does not load
// them at start: the remotes that use them share this entry as one federation singleton, fetched once.
export * from './Dialog';
export * from './ConfirmDialog';
export * from './Tabs';
export * from './Switch';
