import { storeDepsFromEnv } from './deps-from-env';
import { toLambdaStreamingHandler } from '../../infra/http/streaming';
import { createRunStreamHandler } from '../../surfaces/rest-api/run-stream';

/** Ends a stream before the function's 900 s timeout; the client resumes with Last-Event-ID. */
const MAX_STREAM_MS = 840_000;

/**
 * Lambda entry of agents/command_stream: a Function URL with RESPONSE_STREAM behind the dashboard's distribution
 * (`/{lang}/api/v1/agents/command_stream*`), since the HTTP API buffers whole answers. It reads runs and their steps.
 */
const deps = storeDepsFromEnv();
export const handler = toLambdaStreamingHandler(createRunStreamHandler(deps, { maxStreamMs: MAX_STREAM_MS }));
