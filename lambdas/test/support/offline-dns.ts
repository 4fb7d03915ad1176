/** DNS as mailauth asks it, offline (a platform's `mailResolver`): no record exists, so every verdict is `none`. */
export const noDns = async (): Promise<never> => {
  throw Object.assign(new Error('no such record'), { code: 'ENOTFOUND' });
};
