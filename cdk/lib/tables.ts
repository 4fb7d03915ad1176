import { RemovalPolicy } from 'aws-cdk-lib';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { AttributeType, Billing, TableEncryptionV2, TableV2, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLES, physicalTableName, type KeyDefinition, type TableDefinition, type TableName } from '@service/shared';

const attribute = (key: KeyDefinition): Attribute => ({
  name: key.name,
  type: key.type === 'N' ? AttributeType.NUMBER : AttributeType.STRING,
});

const definitionOf = (name: TableName): TableDefinition => TABLES[name];

/** What a reader may do: the actions of CDK's own grantReadData, listed here so the resources can be narrowed. */
const READ_ACTIONS = [
  'dynamodb:BatchGetItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
  'dynamodb:GetItem',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:Query',
  'dynamodb:Scan',
];
/** What a writer may do besides reading (CDK's grantWriteData). */
const WRITE_ACTIONS = ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];

/** The tables deployed to AWS: every shared definition except those only the local platform needs. */
export const DEPLOYED_TABLES = (Object.keys(TABLES) as TableName[]).filter((name) => !definitionOf(name).localOnly);

/**
 * The DynamoDB tables from the shared definitions (the local bootstrap creates the same ones on dynalite):
 * on-demand, point-in-time recovery, AWS-managed encryption, TTL where defined, named prefix + definition name.
 * Retained on stack deletion: customer data outlives a mistaken `cdk destroy`.
 */
export class PlatformTables extends Construct {
  private readonly tables = new Map<TableName, TableV2>();

  constructor(scope: Construct, id: string, props: { prefix: string }) {
    super(scope, id);
    for (const name of DEPLOYED_TABLES) {
      const definition = definitionOf(name);
      const table = new TableV2(this, name, {
        tableName: physicalTableName(props.prefix, name),
        partitionKey: attribute(definition.partitionKey),
        ...(definition.sortKey ? { sortKey: attribute(definition.sortKey) } : {}),
        billing: Billing.onDemand(),
        encryption: TableEncryptionV2.awsManagedKey(),
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        ...(definition.ttlAttribute ? { timeToLiveAttribute: definition.ttlAttribute } : {}),
        globalSecondaryIndexes: (definition.indexes ?? []).map((index) => ({
          indexName: index.name,
          partitionKey: attribute(index.partitionKey),
          ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
        })),
        removalPolicy: RemovalPolicy.RETAIN,
      });
      this.tables.set(name, table);
    }
  }

  /** Read access to a table and to each of its indexes by name (CDK's own grants use `<table>/index/*`). */
  grantRead(name: TableName, grantee: IGrantable): Grant {
    return this.grant(name, grantee, READ_ACTIONS);
  }

  /** Read and write access to a table and to each of its indexes by name. */
  grantReadWrite(name: TableName, grantee: IGrantable): Grant {
    return this.grant(name, grantee, [...READ_ACTIONS, ...WRITE_ACTIONS]);
  }

  /** PutItem alone on a table (no reading, updating or deleting): what the functions recording the audit log get. */
  grantAppend(name: TableName, grantee: IGrantable): Grant {
    return Grant.addToPrincipal({ grantee, actions: ['dynamodb:PutItem'], resourceArns: [this.get(name).tableArn] });
  }

  private grant(name: TableName, grantee: IGrantable, actions: string[]): Grant {
    const { tableArn } = this.get(name);
    const indexArns = (definitionOf(name).indexes ?? []).map((index) => `${tableArn}/index/${index.name}`);
    return Grant.addToPrincipal({ grantee, actions, resourceArns: [tableArn, ...indexArns] });
  }

  /** The deployed table for a shared definition; asking for a local-only table is a wiring mistake. */
  get(name: TableName): TableV2 {
    const table = this.tables.get(name);
    if (!table) throw new Error(`Table "${name}" is not deployed (it is local-only)`);
    return table;
  }
}
