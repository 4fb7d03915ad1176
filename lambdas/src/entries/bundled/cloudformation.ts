import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';

/** The account and region every name of the synthesized stack is given locally. */
export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';

const ResourceSchema = z.object({
  Type: z.string(),
  Properties: z.record(z.string(), z.unknown()).default({}),
  Metadata: z.record(z.string(), z.unknown()).optional(),
});
const TemplateSchema = z.object({
  Resources: z.record(z.string(), ResourceSchema),
  Outputs: z.record(z.string(), z.object({ Value: z.unknown() })).default({}),
});
const ManifestSchema = z.object({
  artifacts: z.record(z.string(), z.object({ type: z.string(), properties: z.object({ templateFile: z.string() }).partial().optional() })),
});

export type Resource = z.infer<typeof ResourceSchema>;

/** A synthesized stack with every intrinsic function resolved to the names the resources have locally. */
export interface ResolvedStack {
  resources: Record<string, Resource>;
  outputs: Record<string, string>;
}

/** Reads the one CloudFormation stack of a `cdk synth` output directory (cdk.out). */
export async function readSynthesizedStack(cdkOut: string): Promise<ResolvedStack> {
  const manifest = ManifestSchema.parse(JSON.parse(await readFile(join(cdkOut, 'manifest.json'), 'utf8')));
  const stacks = Object.values(manifest.artifacts).filter((artifact) => artifact.type === 'aws:cloudformation:stack');
  const templateFile = stacks[0]?.properties?.templateFile;
  if (stacks.length !== 1 || !templateFile) throw new Error(`${cdkOut} must hold exactly one stack (found ${stacks.length})`);
  const template = TemplateSchema.parse(JSON.parse(await readFile(join(cdkOut, templateFile), 'utf8')));
  const resolve = resolver(template.Resources);
  return {
    resources: Object.fromEntries(
      Object.entries(template.Resources).map(([id, resource]) => [id, { ...resource, Properties: resolve(resource.Properties) as Record<string, unknown> }]),
    ),
    outputs: Object.fromEntries(Object.entries(template.Outputs).map(([id, output]) => [id, String(resolve(output.Value))])),
  };
}

const lower = (id: string) => id.toLowerCase();
const arn = (service: string, rest: string) => `arn:aws:${service}:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${rest}`;

/** What `Ref` gives for a resource, by its type, as AWS would name it (ids derived from the logical id). */
function refOf(id: string, resource: Resource): string {
  switch (resource.Type) {
    case 'AWS::SQS::Queue':
      return `https://sqs.${LOCAL_REGION}.amazonaws.com/${LOCAL_ACCOUNT}/${id}`;
    case 'AWS::SecretsManager::Secret':
      return arn('secretsmanager', `secret:${id}`);
    case 'AWS::DynamoDB::GlobalTable':
    case 'AWS::DynamoDB::Table':
      return String(resource.Properties.TableName ?? id);
    case 'AWS::ApiGatewayV2::Api':
    case 'AWS::S3::Bucket':
      return lower(id);
    default:
      return id;
  }
}

/** What `Fn::GetAtt` gives for the attributes the platform's stack reads. */
function attributeOf(id: string, resource: Resource, attribute: string): string {
  const key = `${resource.Type}.${attribute}`;
  switch (key) {
    case 'AWS::SQS::Queue.Arn':
      return arn('sqs', id);
    case 'AWS::SQS::Queue.QueueName':
      return id;
    case 'AWS::DynamoDB::GlobalTable.Arn':
    case 'AWS::DynamoDB::Table.Arn':
      return arn('dynamodb', `table/${refOf(id, resource)}`);
    case 'AWS::Lambda::Function.Arn':
      return arn('lambda', `function:${id}`);
    case 'AWS::Lambda::Url.FunctionUrl':
      return `https://${lower(id)}.lambda-url.${LOCAL_REGION}.on.aws/`;
    case 'AWS::ApiGatewayV2::Api.ApiEndpoint':
      return `https://${lower(id)}.execute-api.${LOCAL_REGION}.amazonaws.com`;
    case 'AWS::CloudFront::Distribution.DomainName':
      return `${lower(id)}.cloudfront.net`;
    case 'AWS::IAM::Role.Arn':
      return `arn:aws:iam::${LOCAL_ACCOUNT}:role/${id}`;
    case 'AWS::CloudFront::Function.FunctionARN':
      return `arn:aws:cloudfront::${LOCAL_ACCOUNT}:function/${id}`;
    case 'AWS::S3::Bucket.Arn':
      return `arn:aws:s3:::${lower(id)}`;
    case 'AWS::S3::Bucket.RegionalDomainName':
      return `${lower(id)}.s3.${LOCAL_REGION}.amazonaws.com`;
    default:
      return arn('local', `${id}/${attribute}`);
  }
}

const PSEUDO: Record<string, string> = {
  'AWS::Region': LOCAL_REGION,
  'AWS::AccountId': LOCAL_ACCOUNT,
  'AWS::Partition': 'aws',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': 'local',
  'AWS::NoValue': '',
};

/** Resolves Ref, Fn::GetAtt, Fn::Join, Fn::Select, Fn::Split and Fn::Sub anywhere in a value. */
function resolver(resources: Record<string, Resource>) {
  const ref = (name: string): string => {
    const pseudo = PSEUDO[name];
    if (pseudo !== undefined) return pseudo;
    const resource = resources[name];
    if (!resource) throw new Error(`Ref to ${name}, which the template does not define`);
    return refOf(name, resource);
  };
  const getAtt = (name: string, attribute: string): string => {
    const resource = resources[name];
    if (!resource) throw new Error(`Fn::GetAtt of ${name}, which the template does not define`);
    return attributeOf(name, resource, attribute);
  };
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value);
    const [name, argument] = entries[0] ?? [];
    if (entries.length === 1 && name) {
      if (name === 'Ref') return ref(String(argument));
      if (name === 'Fn::GetAtt') {
        const [target, attribute] = Array.isArray(argument) ? argument : String(argument).split('.');
        return getAtt(String(target), String(attribute));
      }
      if (name === 'Fn::Join') {
        const [separator, parts] = argument as [string, unknown[]];
        return (resolve(parts) as unknown[]).join(separator);
      }
      if (name === 'Fn::Select') {
        const [index, list] = argument as [unknown, unknown];
        return (resolve(list) as unknown[])[Number(resolve(index))];
      }
      if (name === 'Fn::Split') {
        const [separator, text] = argument as [string, unknown];
        return String(resolve(text)).split(separator);
      }
      if (name === 'Fn::Sub') {
        const [text, variables = {}] = (Array.isArray(argument) ? argument : [argument]) as [string, Record<string, unknown>?];
        return text.replace(/\$\{([^}]+)\}/g, (_, key: string) => {
          if (key in variables) return String(resolve(variables[key]));
          const [target, attribute] = key.split('.');
          return attribute ? getAtt(target!, attribute) : ref(key);
        });
      }
    }
    return Object.fromEntries(entries.map(([key, inner]) => [key, resolve(inner)]));
  };
  return resolve;
}

/** The logical id at the end of a resolved ARN (`…:function:Api`, `…:sqs:…:RunsQueue`). */
export const idOfArn = (value: unknown): string => String(value).split(/[:/]/).at(-1)!;

/** The resources of one type, by logical id. */
export function resourcesOfType(stack: ResolvedStack, type: string): [string, Resource][] {
  return Object.entries(stack.resources).filter(([, resource]) => resource.Type === type);
}

/** A resource's properties, read as the shape its type gives them. */
export const propertiesOf = <T>(resource: { Properties: Record<string, unknown> }) => resource.Properties as T;
