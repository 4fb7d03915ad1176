/**
 * What a Lambda bundle gets for `import ... from '@ai-sdk/gateway'` (LAMBDA_BUNDLING aliases it here). `ai` imports
 * the Vercel AI Gateway provider (with its OIDC client) for one purpose: a model given as a string id
 * ("openai/gpt-5") is resolved through it when no global provider is set. The platform never passes a string: every
 * call gets the model object of the MODEL setting (infra/model/resolve-model.ts). So the bundle carries what `ai`
 * touches on its other paths, with the gateway's own behaviour: the error checks (`isInstance`, by the same global
 * symbols the gateway marks its errors with; no gateway error can arise here, so they answer false for ours) and a
 * provider that refuses every model with the reason, where the gateway would have called Vercel.
 */
const GATEWAY_ERROR = Symbol.for('vercel.ai.gateway.error');
const AUTHENTICATION_ERROR = Symbol.for('vercel.ai.gateway.error.GatewayAuthenticationError');

function hasMarker(error: unknown, symbol: symbol): boolean {
  return typeof error === 'object' && error !== null && symbol in error && (error as Record<symbol, unknown>)[symbol] === true;
}

export const GatewayError = {
  isInstance: (error: unknown): boolean => hasMarker(error, GATEWAY_ERROR),
};

export const GatewayAuthenticationError = {
  isInstance: (error: unknown): boolean => hasMarker(error, GATEWAY_ERROR) && typeof error === 'object' && error !== null && AUTHENTICATION_ERROR in error,
};

function absent(): never {
  throw new Error('The AI Gateway (a model given as a string id) is not part of this Lambda bundle: pass a model object (the MODEL setting)');
}

const provider = new Proxy(absent, { get: (_target, key) => (key === 'then' ? undefined : absent) });

export const gateway = provider;
export const createGateway = (): typeof provider => provider;
