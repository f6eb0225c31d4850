import { startTracing } from './start-tracing';

// The main service's first import (src/main.ts): tracing, when on, starts before anything else loads.
startTracing('platform');
