/** One tool of a skill as the platform knows it. */
export interface CatalogTool {
  /** Action name; the model sees `code__action`, grants name `code.action`. */
  action: string;
  name: string;
  capability: string;
  /** The tool's name on its MCP server (a Path B server may not use `code__action`). */
  mcpName: string;
  description: string;
  /** Standalone fallback roles from the manifest; apply only when the workspace granted nothing for the skill. */
  roles?: string[];
}

export const toolOf = (code: string, action: string, mcpName: string, description: string, roles?: readonly string[]): CatalogTool => ({
  action,
  name: `${code}__${action}`,
  capability: `${code}.${action}`,
  mcpName,
  description,
  ...(roles ? { roles: [...roles] } : {}),
});
