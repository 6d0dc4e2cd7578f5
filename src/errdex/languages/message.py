"""The message type, kept at its old address: it lives in ``_engine/message.py``."""

from errdex.languages._engine.message import Message, joined, operand_hole

__all__ = ["Message", "joined", "operand_hole"]
