"""The repository stage: git trees, blobs and history, read without running anything a
repository configures (``git``), and the process hygiene every git child and worker needs
(``processes``)."""
