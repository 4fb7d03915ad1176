import { parseJsonBody, validated } from '../../../infra/http/json-body';
import { apiState, type ApiRequest } from '../context';

/** Parses the JSON body (size and media type checked first) and validates body and query against the endpoint's schemas. */
export const parseInput = (maxBodyBytes: number) => ({
  before: (request: ApiRequest) => {
    const state = apiState(request);
    const { endpoint } = state;
    if (endpoint.query) state.query = validated(endpoint.query, request.event.queryStringParameters ?? {});
    if (endpoint.body) state.body = parseJsonBody(request.event, endpoint.body, { maxBytes: endpoint.maxBodyBytes ?? maxBodyBytes });
  },
});
