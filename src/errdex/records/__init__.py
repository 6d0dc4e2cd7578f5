"""The record format: the seed's model and errdex's schema-3 extras (``model``), the
evidence a record carries (``evidence``), and the checks an imported record must pass
(``validate``)."""
