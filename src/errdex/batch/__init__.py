"""Mining many repositories: the scheduler (``many``), the clone cache (``clones``) and the
Ray backend (``ray_backend``)."""
