/** sessionStorage that never throws (blocked storage, private mode, quota): the widget must work without it. */
export const session = {
  read<T>(key: string): T | null {
    try {
      const raw = sessionStorage.getItem(key);
      return raw === null ? null : (JSON.parse(raw) as T);
    } catch {
      return null;
    }
  },
  write(key: string, value: unknown): void {
    try {
      sessionStorage.setItem(key, JSON.stringify(value));
    } catch {
      // Storage unavailable or full: the conversation simply is not kept across page loads.
    }
  },
  remove(key: string): void {
    try {
      sessionStorage.removeItem(key);
    } catch {
      // as above
    }
  },
};
