"""errdex on the web: server-rendered pages and a JSON API over the Python API.

``errdex.interfaces.web.app.create_app(db_path)`` builds the FastAPI application. This
package's ``__init__`` imports nothing heavy, so ``errdex.interfaces.web.state`` (the
thread-safe store pool the MCP server shares) works without the web extra.
"""
