"""Message templates: the message as written → literal parts and holes → pattern and slug
(``template``), the format-string dialects of every language (``formats``), and reading a
stored pattern back into its literal fragments and holes (``analysis``)."""
