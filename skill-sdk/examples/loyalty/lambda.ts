/** The loyalty skill as a Lambda behind a Function URL (deployed by the CDK stack's SkillFunction construct). */
import { skillLambdaHandler } from '@service/skill-sdk/lambda';
import { loyalty } from './skill';

export const handler = skillLambdaHandler(loyalty);
