"""Command-line entry point: ``python -m inventory.cli stock.csv reserve SKU-1042 5``."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from inventory.models import InventoryError, parse_quantity
from inventory.pricing import line_total
from inventory.store import Store

logger = logging.getLogger("inventory")


def main(argv: list[str] | None = None) -> int:
    """Run one command against a store loaded from CSV and return an exit code."""
    parser = argparse.ArgumentParser(prog="inventory")
    parser.add_argument("stock", type=Path, help="CSV file with sku,name,price,qty")
    parser.add_argument("command", choices=["reserve", "quote", "list"])
    parser.add_argument("sku", nargs="?")
    parser.add_argument("qty", nargs="?", default="1")
    parser.add_argument("--code", help="promotion code for quotes")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")

    store = Store()
    store.load_csv(args.stock)
    if args.command == "list":
        for item in store:
            print(f"{item.sku}  {item.quantity:>5d}  {item.unit_price:>8.2f}  {item.name}")
        return 0
    if args.sku is None:
        parser.error(f"{args.command} needs a SKU")
    try:
        qty = parse_quantity(args.qty)
        if args.command == "reserve":
            store.reserve(args.sku, qty)
            print(f"reserved {qty} x {args.sku}")
        else:
            print(f"{line_total(store, args.sku, qty, args.code):.2f}")
    except InventoryError as exc:
        logger.error("%s failed: %s", args.command, exc)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
