// Stands in for the MCP SDK's Ajv validator module in the Worker bundle (scripts/bundle-worker.ts).
// The MCP route passes a validator of its own (functions/routes/mcp.ts), so the SDK never makes its
// Ajv default; and Ajv compiles schemas with `new Function`, which Workers refuse. Leaving Ajv and
// its dependencies out takes a quarter off the bundle that every Worker start parses.
export class AjvJsonSchemaValidator {
  constructor() {
    throw new Error("Ajv is not in the Worker bundle: pass a jsonSchemaValidator to the MCP server (functions/routes/mcp.ts)");
  }
}
