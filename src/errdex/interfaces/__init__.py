"""What people and agents use: the command line (``cli``, ``render``), the web pages and
JSON API (``web``) and the MCP server (``mcp``), thin layers over the library."""
