import { startTracing } from './start-tracing';

// The agent's first import (src/agent/main.ts): tracing, when on, starts before anything else loads.
startTracing('platform-agent');
