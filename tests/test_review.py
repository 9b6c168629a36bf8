"""The review of a finished match (`analysis/review.py`): judged from what the seat knew, deterministic,
refusing what it cannot review, and honest against Lucky Nine's exact stop rule."""

from __future__ import annotations

import pytest

from partygames import games
from partygames.analysis.review import ReviewError, Thresholds, review
from partygames.engine.log import MatchLog
from partygames.engine.search import Budget
from partygames.engine.session import play
from partygames.games.dice_derby.review import odds_checks
from partygames.games.lucky_nine.review import exact_checks
from partygames.games.smuggling.review import equilibrium_checks

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
    for bad in ({"measure": "money"}, {"mistake": 0.01}, {"measure": "lead"}):  # the lead: only with how to read it
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


SMUGGLING = games.get("smuggling")


def test_smuggling_reviews_agree_with_the_small_games_equilibrium() -> None:
    # Issue 32: the review's judgement of packs and declarations agrees with the equilibrium's values (the
    # small game solved by LP, `partygames analyze smuggling`), and a move the equilibrium never plays is
    # judged worse than one it does: in every small game but the last (where the bots play for the win, not
    # the equilibrium), each disagreement falls within the review's 95% interval.
    checks = []
    for seed in (1, 2, 3):
        kinds = ["random" if (seed + s) % 2 else "equilibrium" for s in range(2)]
        bots = [SMUGGLING.make_bot(kind, s, 1000 * seed + s) for s, kind in enumerate(kinds)]
        log = play(SMUGGLING, 2, bots, {"team_size": 1, "small_games": 4}, seed)[1]
        for seat in range(2):
            result = review(SMUGGLING, log, seat, Budget(simulations=200))
            assert result.thresholds.measure == "lead"
            checks += [c for c in equilibrium_checks(SMUGGLING, log, result) if not c.last]
    assert {c.role for c in checks} == {"smuggler", "inspector"}
    assert all(c.agrees or c.within_noise for c in checks), checks
    pairs = [p for c in checks for p in c.pairs()]
    assert all(ordered or noise for _, _, ordered, noise in pairs)
    assert sum(ordered and not noise for _, _, ordered, noise in pairs) >= 10  # clear-cut, not all noise


def test_dice_derby_betting_is_judged_against_the_exact_odds() -> None:
    # Issue 32: at each betting decision the exact expected gain of every candidate follows from the exact
    # race probabilities and the odds shown; the review's best bet agrees with it, or the exact values
    # differ by less than the review's 95% interval (a generous house, payout rate 1.5, so that tickets
    # differ by thousands of yen, not by the odds' rounding).
    derby = games.get("dice-derby")
    bots = [derby.make_bot("heuristic", s, 2000 + s) for s in range(6)]
    log = play(derby, 6, bots, {"races": 4, "payout_rate": 1.5}, 2)[1]
    result = review(derby, log, 0, Budget(simulations=64))
    assert result.thresholds.measure == "score"
    checks = odds_checks(derby, log, result)
    assert len(checks) >= 4 and {c.race for c in checks} == {1, 2, 3, 4}
    assert any(max(c.exact) - min(c.exact) > 1000 for c in checks)
    assert all(c.agrees or c.within_noise for c in checks), checks
