export const SDK_NAME = '@service/skill-sdk';
export const SDK_VERSION = '0.3.0';
