"""Mining a repository: a git tree's files through the language extractors, evidence and
static enrichment into records, written to a store (``run``)."""
