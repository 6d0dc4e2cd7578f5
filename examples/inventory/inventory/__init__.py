"""Warehouse stock service: items, stock levels, reservations and pricing."""

from inventory.models import InventoryError, Item, OutOfStockError, UnknownSkuError
from inventory.store import Store

__all__ = ["InventoryError", "Item", "OutOfStockError", "Store", "UnknownSkuError"]
