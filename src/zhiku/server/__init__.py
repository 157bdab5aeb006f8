"""Serving the knowledge base: HTTP API and web UI (`zhiku serve`), MCP server (`zhiku mcp`)."""
