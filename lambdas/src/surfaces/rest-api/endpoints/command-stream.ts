import { getRun, toRunResponse } from '../../../domains/runs/runs';
import type { EndpointHandler } from './types';

/**
 * agents/command_stream through the pipeline: it checks the caller and that the run is theirs, and answers the run;
 * the streaming function (run-stream.ts) then streams its events. A module of its own, so that function carries
 * nothing else of the agents' endpoints.
 */
export const agentsCommandStream: EndpointHandler<'agentsCommandStream'> = async ({ deps, workspace, query }) => ({
  data: toRunResponse(await getRun(deps, workspace.id, query.run_id)),
});
