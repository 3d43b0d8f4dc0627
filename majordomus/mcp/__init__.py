"""The stdio MCP server: a projection of the capability registry over JSON-RPC."""
