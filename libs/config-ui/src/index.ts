export * from './ConfigurationActions';
