// react-dom ships no types and @types/react-dom is not a dependency: the one function the useChat page uses.
declare module 'react-dom/client' {
  import type { ReactNode } from 'react';
  export function createRoot(container: Element): { render(children: ReactNode): void };
}
