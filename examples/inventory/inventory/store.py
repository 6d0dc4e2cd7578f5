"""In-memory stock store with reservations and CSV import."""

from __future__ import annotations

import csv
import logging
import warnings
from pathlib import Path

from inventory.models import (
    InventoryError,
    Item,
    OutOfStockError,
    UnknownSkuError,
    ValidationError,
)

logger = logging.getLogger(__name__)


class Store:
    """Holds items by SKU and tracks units reserved for open orders."""

    def __init__(self) -> None:
        self._items: dict[str, Item] = {}
        self._reserved: dict[str, int] = {}

    def add(self, item: Item) -> None:
        """Register a new item.

        Raises:
            InventoryError: If an item with the same SKU already exists.
        """
        if item.sku in self._items:
            raise InventoryError(f"duplicate SKU {item.sku!r}")
        self._items[item.sku] = item
        self._reserved[item.sku] = 0

    def get(self, sku: str) -> Item:
        """Return the item for ``sku``.

        Raises:
            UnknownSkuError: If ``sku`` is not in the store.
        """
        try:
            return self._items[sku]
        except KeyError:
            raise UnknownSkuError(f"unknown SKU {sku!r}") from None

    def available(self, sku: str) -> int:
        """Units on hand that are not already reserved."""
        return self.get(sku).quantity - self._reserved[sku]

    def reserve(self, sku: str, qty: int) -> None:
        """Reserve ``qty`` units of ``sku`` for an order.

        Raises:
            ValidationError: If ``qty`` is not positive.
            OutOfStockError: If fewer than ``qty`` units are available.
        """
        if qty <= 0:
            raise ValidationError("reservation quantity must be positive")
        left = self.available(sku)
        if qty > left:
            raise OutOfStockError(
                f"cannot reserve {qty:d} units of {sku!r}: only {left:d} left"
            )
        self._reserved[sku] += qty
        logger.info("reserved %d x %s", qty, sku)

    def release(self, sku: str, qty: int) -> None:
        """Give back ``qty`` previously reserved units of ``sku``."""
        held = self._reserved.get(sku, 0)
        if qty > held:
            logger.error("release of %d x %s exceeds reservation of %d", qty, sku, held)
            raise InventoryError(
                "cannot release %d units of %s: only %d reserved" % (qty, sku, held)
            )
        self._reserved[sku] = held - qty

    def ship(self, sku: str, qty: int) -> None:
        """Ship reserved units, removing them from stock."""
        self.release(sku, qty)
        self.get(sku).quantity -= qty

    def restock(self, sku: str, qty: int) -> None:
        """Deprecated alias for :meth:`receive`."""
        warnings.warn(
            "Store.restock() is deprecated, use Store.receive()",
            DeprecationWarning,
            stacklevel=2,
        )
        self.receive(sku, qty)

    def receive(self, sku: str, qty: int) -> None:
        """Add ``qty`` delivered units of ``sku`` to stock."""
        if qty <= 0:
            raise ValidationError("received quantity must be positive, got {}".format(qty))
        self.get(sku).quantity += qty

    def load_csv(self, path: Path) -> int:
        """Load items from a CSV file with columns sku,name,price,qty.

        Returns:
            The number of items loaded.

        Raises:
            InventoryError: If the file is missing or a row is malformed.
        """
        count = 0
        try:
            with path.open(newline="") as fh:
                for lineno, row in enumerate(csv.DictReader(fh), start=2):
                    try:
                        self.add(
                            Item(row["sku"], row["name"], float(row["price"]), int(row["qty"]))
                        )
                    except (KeyError, ValueError) as exc:
                        raise InventoryError(f"{path}:{lineno}: bad row ({exc})") from exc
                    count += 1
        except FileNotFoundError:
            logger.exception("stock file %s not found", path)
            raise
        return count

    def __iter__(self):
        return iter(self._items.values())
