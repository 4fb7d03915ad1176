/** `items` in consecutive groups of at most `size` (DynamoDB's per-request limits: IN operands, batch sizes). */
export const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, index * size + size));
