// The lazily loaded widget chunk: everything the loader does not need to show the FAB and the panel.
export { mountWidget } from './mount';
export type { MountOptions } from './mount';
