"""Lookup: from a pasted error to the sites that produce it."""
