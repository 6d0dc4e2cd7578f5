"""Price calculations: discounts, bulk tiers and order totals."""

from __future__ import annotations

import logging

from inventory.models import InventoryError
from inventory.store import Store

logger = logging.getLogger(__name__)

DISCOUNT_CODES: dict[str, float] = {"SPRING10": 0.10, "STAFF": 0.25}
BULK_TIERS: list[tuple[int, float]] = [(100, 0.15), (50, 0.08), (10, 0.03)]
MAX_DISCOUNT = 0.40


class PricingError(InventoryError):
    """Raised when a price cannot be computed."""


def discount_for(code: str) -> float:
    """Look up the discount rate for a promotion code.

    Raises:
        KeyError: If ``code`` is not a known promotion.
    """
    if code not in DISCOUNT_CODES:
        raise KeyError(code)
    return DISCOUNT_CODES[code]


def bulk_rate(qty: int) -> float:
    """Return the bulk discount rate for an order of ``qty`` units."""
    for threshold, rate in BULK_TIERS:
        if qty >= threshold:
            return rate
    return 0.0


def line_total(store: Store, sku: str, qty: int, code: str | None = None) -> float:
    """Price ``qty`` units of ``sku``, applying bulk and promotion discounts.

    Raises:
        PricingError: If the combined discount exceeds ``MAX_DISCOUNT`` or the
            item has no price.
    """
    item = store.get(sku)
    if item.unit_price == 0:
        raise PricingError(f"{sku} has no list price")
    rate = bulk_rate(qty)
    if code is not None:
        try:
            rate += discount_for(code)
        except KeyError:
            logger.error("unknown discount code %r for %s", code, sku)
            raise PricingError("unknown discount code: {}".format(code)) from None
    if rate > MAX_DISCOUNT:
        raise PricingError(
            f"discount of {rate:.0%} on {sku!r} exceeds the {MAX_DISCOUNT:.0%} cap"
        )
    total = round(item.unit_price * qty * (1 - rate), 2)
    if total < 0:
        raise PricingError(f"negative total {total:.2f} for {sku!r}")
    return total
