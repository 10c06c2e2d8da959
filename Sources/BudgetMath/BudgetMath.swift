// BudgetMath has no public API yet; its capability lands with its own issue.
