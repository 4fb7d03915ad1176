/**
 * Deny by default. A grant from the platform (the turn token's `caps`) decides alone when present;
 * only without a grant do the tool's own `roles` apply, and a tool without `roles` is then denied.
 */
export function mayCall(
  tool: { capability: string; roles: readonly string[] | undefined },
  caller: { roles: readonly string[]; capabilities: readonly string[] | undefined },
): boolean {
  if (caller.capabilities) return caller.capabilities.includes(tool.capability);
  return tool.roles?.some((role) => caller.roles.includes(role)) ?? false;
}
