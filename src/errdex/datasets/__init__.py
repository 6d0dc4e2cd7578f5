"""Datasets: JSONL dataset lines in and out (``lines``), Parquet and published dataset
folders (``publish``)."""
