/**
 * What a Lambda bundle gets for the model provider its MODEL setting does not select (providerAliases in
 * lambda-bundling.ts): `bedrock:…` carries Amazon Bedrock and not the OpenAI-compatible provider, `openai:…` the
 * reverse, `offline` neither; a hosted one leaves out the built-in offline model (`@service/offline-model`,
 * offline-model/), which resolve-model.ts imports by its package name. The stack bundles each function for the MODEL it deploys
 * it with, so this is reached only if MODEL is changed on a deployed function without deploying again, and then says so.
 */
function notDeployed(provider: string): never {
  throw new Error(
    `The ${provider} model provider is not in this Lambda bundle: each function carries the provider of the MODEL it was deployed with; deploy again with the new MODEL`,
  );
}

export function createAmazonBedrock(): never {
  return notDeployed('Amazon Bedrock');
}

export function createOpenAICompatible(): never {
  return notDeployed('OpenAI-compatible');
}

export function createOfflineModel(): never {
  return notDeployed('offline');
}
