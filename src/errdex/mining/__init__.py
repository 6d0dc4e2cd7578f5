"""Mining a repository: ``files`` turns each file of a git tree into records (language
extractors, evidence, static enrichment), ``extract`` makes the whole tree's records an
``Extraction`` without writing anything, and ``run.mine`` hands it to ``Store.write``."""
