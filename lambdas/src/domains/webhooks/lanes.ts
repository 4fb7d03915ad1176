/**
 * At most `width` tasks at once per key; the others wait their turn, first come first served. A key's lane is dropped
 * when it empties, so keys seen once do not accumulate.
 */
export function lanes(width: number): <T>(key: string, task: () => Promise<T>) => Promise<T> {
  const open = new Map<string, { running: number; waiting: Array<() => void> }>();
  return async (key, task) => {
    let lane = open.get(key);
    if (!lane) open.set(key, (lane = { running: 0, waiting: [] }));
    if (lane.running < width) lane.running += 1;
    else await new Promise<void>((resolve) => lane.waiting.push(resolve));
    try {
      return await task();
    } finally {
      // A waiting task takes this one's place; otherwise the lane narrows, and goes once nothing runs in it.
      const next = lane.waiting.shift();
      if (next) next();
      else if (--lane.running === 0) open.delete(key);
    }
  };
}
