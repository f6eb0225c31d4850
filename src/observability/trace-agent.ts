import { startTracing } from './start-tracing';

// The agent's first import: tracing must start before anything else loads.
startTracing('platform-agent');
