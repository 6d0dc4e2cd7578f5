"""Where records live: the ``Store`` protocol and ``open_store`` (``protocol``), one SQL
layer written once (``sql``) over one migration list (``schema``), and the two dialects
that differ only where the databases do (``sqlite``, ``postgres``)."""
