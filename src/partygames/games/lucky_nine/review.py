"""How a review judges Lucky Nine (`analysis/review.py`, docs/review.md): by money, the expected final
diamonds (the result's score), as the exact turn analysis (`analysis.py`) values a turn; marks by
diamonds lost against the best candidate (64 at the start by default)."""

from partygames.analysis.review import Thresholds

THRESHOLDS = Thresholds(inaccuracy=2.0, mistake=5.0, blunder=10.0, measure="score")
