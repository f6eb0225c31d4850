import { startTracing } from './start-tracing';

// The main service's first import: tracing must start before anything else loads.
startTracing('platform');
