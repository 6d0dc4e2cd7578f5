"""Mining many repositories: the LIST and resolving it (``entries``), what a worker does and
where it runs (``workers``; ``ray_backend`` for a Ray cluster), the clone cache (``clones``)
and the scheduler that alone writes (``many``)."""
