"""Core data types and the exception hierarchy for the inventory service."""

from __future__ import annotations

import re
from dataclasses import dataclass

SKU_PATTERN = re.compile(r"^SKU-\d{4}$")


class InventoryError(Exception):
    """Base class for all errors raised by the inventory package."""


class UnknownSkuError(InventoryError, LookupError):
    """Raised when a SKU is not present in the store."""


class OutOfStockError(InventoryError):
    """Raised when a reservation asks for more units than are on hand."""


class ValidationError(InventoryError):
    """Raised when an item or quantity fails validation."""


@dataclass
class Item:
    """A stock-keeping unit held in the warehouse."""

    sku: str
    name: str
    unit_price: float
    quantity: int = 0

    def __post_init__(self) -> None:
        if not SKU_PATTERN.match(self.sku):
            raise ValidationError(f"invalid SKU {self.sku!r}: expected SKU-NNNN")
        if self.unit_price < 0:
            raise ValidationError(
                "unit price must be non-negative, got %.2f" % self.unit_price
            )
        if self.quantity < 0:
            msg = "initial quantity for {} cannot be negative ({})".format(
                self.sku, self.quantity
            )
            raise ValidationError(msg)


def parse_quantity(text: str) -> int:
    """Parse a user-supplied quantity.

    Args:
        text: The raw quantity, e.g. ``"12"``.

    Returns:
        The quantity as a positive integer.

    Raises:
        ValidationError: If ``text`` is not a positive whole number.
    """
    try:
        qty = int(text)
    except ValueError:
        raise ValidationError(f"quantity must be a whole number, got {text!r}") from None
    if qty <= 0:
        raise ValidationError("quantity must be positive")
    return qty
