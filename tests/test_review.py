"""The review of a finished match (`analysis/review.py`): judged from what the seat knew, deterministic,
refusing what it cannot review, and honest against Lucky Nine's exact stop rule."""

from __future__ import annotations

import pytest

from partygames import games
from partygames.analysis.review import ReviewError, Thresholds, review
from partygames.engine.log import MatchLog
from partygames.engine.search import Budget
from partygames.engine.session import play
from partygames.games.lucky_nine.review import exact_checks

LUCKY = games.get("lucky-nine")


def lucky_match(seed: int, kinds: tuple[str, ...] = ("heuristic", "heuristic")) -> MatchLog:
    bots = [LUCKY.make_bot(kind, s, seed + s) for s, kind in enumerate(kinds)]
    return play(LUCKY, len(kinds), bots, {}, seed)[1]


def test_a_decision_is_judged_only_from_what_the_seat_knew() -> None:
    # Seeds 0 and 40 deal different matches whose seat 0 sees the very same table at its first decision
    # (step 1): the future draws differ, so a review that peeked at the real match would judge it differently.
    first, second = lucky_match(0), lucky_match(40)
    assert first.entries != second.entries
    one, other = (review(LUCKY, log, 0, Budget(simulations=40)) for log in (first, second))
    assert one.decisions[0].step == other.decisions[0].step == 1
    assert one.decisions[0].to_json() == other.decisions[0].to_json()


def test_the_same_match_seat_and_budget_give_the_same_review() -> None:
    log = lucky_match(3)
    assert review(LUCKY, log, 1, Budget(simulations=30)).to_json() == review(LUCKY, log, 1, Budget(simulations=30)).to_json()


def test_marks_follow_the_loss_and_noise_is_not_marked() -> None:
    table = Thresholds(inaccuracy=0.05, mistake=0.1, blunder=0.2)
    assert [table.mark(x) for x in (0.0, 0.06, 0.15, 0.3)] == ["good", "inaccuracy", "mistake", "blunder"]
    for bad in ({"measure": "money"}, {"mistake": 0.01}):
        with pytest.raises(ValueError):
            Thresholds(**bad)
    # A random player's match: every played move that is not the best is marked by its significant loss, or
    # left unmarked when the loss's interval reaches zero.
    log = lucky_match(5, ("random", "heuristic"))
    result = review(LUCKY, log, 0, Budget(simulations=60))
    assert result.decisions
    for d in result.decisions:
        if d.played == d.best:
            assert d.mark == "best" and d.loss == 0
        elif d.loss_interval[0] <= 0:
            assert d.mark is None
        else:
            assert d.mark == result.thresholds.mark(d.loss) and d.loss > 0
        assert d.candidates[d.best].mean == max(c.mean for c in d.candidates)
    assert [s for s, _ in result.series] == [d.step for d in result.decisions]


def test_an_unfinished_match_a_seat_out_of_range_and_a_spectators_log_are_refused() -> None:
    log = lucky_match(3)
    running = MatchLog(log.game, log.seats, log.options, log.seed, log.entries[:-3], None, log.bots)
    with pytest.raises(ReviewError, match="not finished"):
        review(LUCKY, running, 0, Budget(simulations=10))
    with pytest.raises(ReviewError, match="not one of the match's seats"):
        review(LUCKY, log, 2, Budget(simulations=10))
    redacted = MatchLog(log.game, log.seats, log.options, None, log.entries, None, log.bots)  # type: ignore[arg-type]
    with pytest.raises(ReviewError, match="spectator"):
        review(LUCKY, redacted, 0, Budget(simulations=10))


def test_lucky_nine_reviews_agree_with_the_exact_stop_rule() -> None:
    # The acceptance test of issue 32 on a few seeded matches of random and heuristic bots: the review's best
    # move at continue/stop decisions agrees with the exact rule, and every disagreement is within its noise.
    checks = []
    for seed in (1, 2):
        log = lucky_match(seed, ("random", "heuristic", "random") if seed % 2 else ("heuristic", "random"))
        for seat in range(log.seats):
            checks += exact_checks(LUCKY, log, review(LUCKY, log, seat, Budget(simulations=200)))
    assert len(checks) >= 5
    assert all(c.agrees or c.within_noise for c in checks), checks
    assert any(c.agrees and not c.within_noise for c in checks)  # some are clear-cut, not all noise
