"""max_budget lives in core/budget.py (the engine checks it before each request); kept importable here."""
from oi_local.core.budget import BudgetExceeded, check, is_free, price, record

__all__ = ["BudgetExceeded", "check", "is_free", "price", "record"]
