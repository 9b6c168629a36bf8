"""Last Man Standing's analysis: the exact first fight worked by hand and replayed deal by deal through the
engine, checked by simulated random play; the strategies, card values and paired hires; and
`partygames analyze last-man-standing` in English and Japanese with its plot."""

from __future__ import annotations

import itertools
import json
import pickle
import re
from collections import defaultdict
from dataclasses import replace
from fractions import Fraction
from functools import partial
from pathlib import Path

from typer.testing import CliRunner

from partygames.analysis.parallel import chunks
from partygames.cli.main import app
from partygames.games.last_man_standing import GAME
from partygames.games.last_man_standing.analysis import (
    RANKS,
    FirstFight,
    Study,
    average,
    first_fights,
    play_job,
    play_jobs,
    simulate,
)
from partygames.games.last_man_standing.cards import DECK, RANK
from partygames.games.last_man_standing.rules import LastManStandingMatch
from tests.games.test_last_man_standing_rules import deck_for

runner = CliRunner()
SMALL_DECK = ["2S", "3S", "3H", "9S", "KS"]


def _row(fights: list[FirstFight], rank: int) -> tuple[Fraction, Fraction, Fraction]:
    fight = next(f for f in fights if f.rank == rank)
    return fight.survives, fight.kills, fight.bounty


def test_the_first_fight_from_a_five_card_deck_worked_by_hand() -> None:
    """Four of 2, 3, 3, 9, K are played; the others' three cards are equally likely to be any three of the
    four I do not hold.
    My 2 against 3 3 9 or 3 3 K: it kills the highest ($1) and the tied 3s kill nothing; against 3 9 K (two
    ways): it kills the K ($1), the 3 kills it. Survives 1/2, always kills, bounty $1.
    My 9 against 2 3 3: the 2 kills it. Against 2 3 K (two ways): the 2 kills the K, the 3 the 2, my 9 the 3
    ($3) and lives. Against 3 3 K: the tied 3s stand off, my 9 kills both ($1 + $2), the K kills it. Survives
    1/2, kills 3/4, bounty (3 + 3 + 3) / 4 = 9/4.
    My K against 3 3 9 only lives (the 9 kills the 3s for $1 + $2, the K the 9 for $3); else the 2 kills it."""
    fights = first_fights(4, SMALL_DECK)
    assert _row(fights, 2) == (Fraction(1, 2), Fraction(1), Fraction(1))
    assert _row(fights, 9) == (Fraction(1, 2), Fraction(3, 4), Fraction(9, 4))
    assert _row(fights, 13) == (Fraction(1, 4), Fraction(1, 4), Fraction(3, 4))


def test_an_ace_in_round_1_of_four_lives_only_when_the_lowest_rank_is_shared() -> None:
    """The three others' cards are 3 of the 51 I do not hold: C(51, 3) = 20,825 sets. A lone lowest fighter
    kills the ace, so it lives when the others are the three aces (1 set), one ace and a pair (3 x 12 x 6 =
    216), three of a rank (12 x 4 = 48), or a pair under a higher card (6 x 4 x (11 + 10 + ... + 0) = 1,584):
    1,849 sets. It kills (every lower fighter) only when it is the only ace: the last two kinds, 1,632 sets."""
    ace = _row(first_fights(4), 14)
    assert ace[0] == Fraction(1849, 20825) and ace[1] == Fraction(1632, 20825)


def _round_1(cards: tuple[str, ...]) -> tuple[bool, bool, int]:
    """Seat s plays cards[s] in round 1 of a real match (the rest of each hand from outside the small deck);
    seat 0's fighter: (survived, killed, bounty), read from the public history."""
    filler = [c for c in DECK if c not in SMALL_DECK]
    hands = [[card, *filler[5 * s: 5 * s + 5]] for s, card in enumerate(cards)]
    match = GAME.new(4, None, seed=0, script={"deck": [deck_for(hands)], "start_player": [0]})
    assert isinstance(match, LastManStandingMatch)
    while match.phase == "draft":
        match.apply(match.to_act()[0], {"type": "hire", "slot": 0})
    for seat, card in enumerate(cards):
        match.apply(seat, {"type": "play", "card": card})
    kills = match.view(None)["history"][0]["kills"]
    mine = [k["paid"] for k in kills if k["killer"]["owner"] == 0]
    return all(k["victim"]["owner"] != 0 for k in kills), bool(mine), sum(mine)


def test_the_exact_first_fight_is_every_deal_played_through_the_engine() -> None:
    """All 5 x 4 x 3 x 2 = 120 ordered deals of four cards of the small deck, each fought in a real match:
    grouped by the rank of seat 0's card, they average to the exact table (as fractions)."""
    outcomes: dict[int, list[tuple[bool, bool, int]]] = defaultdict(list)
    for cards in itertools.permutations(SMALL_DECK, 4):
        outcomes[RANK[cards[0]]].append(_round_1(cards))
    for fight in first_fights(4, SMALL_DECK):
        played = outcomes[fight.rank]
        assert (fight.survives, fight.kills, fight.bounty) == (
            Fraction(sum(s for s, _, _ in played), len(played)), Fraction(sum(k for _, k, _ in played), len(played)),
            Fraction(sum(b for _, _, b in played), len(played)))


def test_random_bots_round_1_matches_the_exact_table() -> None:
    """1,000 matches of random bots: the round-1 fighters of every rank survive and earn what the exact
    table says (within the 95% interval overall, within twice its half-width for each rank)."""
    exact = {f.rank: f for f in first_fights(4)}
    exact[0] = average(list(exact.values()))
    checks = simulate(Study(seats=4, checks=1000, strategies=0, table=0, pairs=0)).checks
    assert [c.rank for c in checks] == [*RANKS, 0] and checks[-1].fighters == 4000
    for check in checks:
        share, low, high = check.survival
        bounty, b_low, b_high = check.bounty
        slack = 1 if check.rank == 0 else 2
        assert abs(share - float(exact[check.rank].survives)) <= slack * (high - low) / 2, check
        assert abs(bounty - float(exact[check.rank].bounty)) <= slack * (b_high - b_low) / 2, check


def test_strategies_card_values_and_paired_hires_add_up() -> None:
    study = Study(seats=4, checks=0, strategies=6, table=4, pairs=4, caps=(2, 6))
    report = simulate(study)
    # Six strategies over 4 seats x 6 matches: each plays 4 seats; every match has a winner.
    assert [r.strategy for r in report.strategies] == list(study.lineup)
    assert all(r.seats == 4 for r in report.strategies) and sum(r.wins for r in report.strategies) >= 6
    # Every seat holds six cards; chips over the table's average sum to 0 over all the cards held.
    assert sum(c.cards for c in report.cards) == 6 * 4 * 4
    assert abs(sum(c.cards * c.chips[0] for c in report.cards)) < 1e-9
    assert [(h.cap, h.pairs) for h in report.hires] == [(2, 4), (6, 4)]
    for pair in range(study.pairs):
        hero = study.hero(pair)
        free = play_job(study, study.number("table", pair)).seats[hero]
        assert free.strategy == "heuristic"
        for c, cap in enumerate(study.caps):
            bought = play_job(study, study.number("pairs", c * study.pairs + pair)).seats[hero]
            assert bought.strategy == f"buy-10-q:{cap}"
            if bought.cards == free.cards:  # no 10-Q was cheap enough: the very same match
                assert bought == replace(free, strategy=bought.strategy)


def test_a_worker_s_task_pickles_and_its_chunks_give_the_single_process_matches() -> None:
    """What `simulate(study, workers=n)` hands each worker process (tests/test_parallel.py runs real ones)."""
    study = Study(seats=5, checks=12, strategies=2, table=0, pairs=0, seed=9)
    task = pickle.loads(pickle.dumps(partial(play_jobs, study)))
    spread = [p for start, count in chunks(study.total, 2) for p in task(start, count)]
    assert spread == [play_job(study, j) for j in range(study.total)]


def _figures(output: str) -> list[str]:
    return re.findall(r"\d+(?:\.\d+)?%?", output)


def test_analyze_speaks_both_languages_with_the_same_figures_and_writes_its_plot(tmp_path: Path) -> None:
    args = ["analyze", "last-man-standing", "--checks", "40", "--matches", "3", "--table", "2", "--pairs", "1",
            "--seed", "3"]
    wide = {"COLUMNS": "200"}  # nothing folds, so that the figures read in order
    english = runner.invoke(app, [*args, "--plot", str(tmp_path / "en.png")], env=wide)
    japanese = runner.invoke(app, [*args, "--plot", str(tmp_path / "ja.png"), "--lang", "ja"], env=wide)
    assert english.exit_code == 0 and japanese.exit_code == 0, english.output + japanese.output
    for path in ("en.png", "ja.png"):
        assert (tmp_path / path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"Plot saved to {tmp_path / 'en.png'}" in english.output
    assert f"グラフを保存しました: {tmp_path / 'ja.png'}" in japanese.output
    for shown in ("Round 1: my fighter", "Strategies sharing tables", "Value of a card", "Buying 10-Q",
                  "buys 10-Q up to $4", "lowest card first"):
        assert shown in english.output, shown
    for shown in ("ラウンド1: 他の人のカードが無作為のときの自分の闘士", "戦略の比較", "カードの価値",
                  "10〜Qを$4まで雇う", "小さい順に出す", "増えたチップ"):
        assert shown in japanese.output, shown
    assert not re.search(r"[A-Za-z]{2,}", japanese.output.replace(str(tmp_path / "ja.png"), "")), japanese.output
    assert _figures(japanese.output.replace(str(tmp_path / "ja.png"), "")) == _figures(
        english.output.replace(str(tmp_path / "en.png"), ""))
    # --json: the same figures whatever the language, and --no-plot writes nothing.
    figures = [json.loads(runner.invoke(app, [*args, "--json", "--no-plot", *lang]).output)
               for lang in ([], ["--lang", "ja"])]
    assert figures[0] == figures[1] and figures[0]["plot"] is None
    ace = figures[0]["first_fight_exact"][12]
    assert ace["rank"] == "A" and ace["survives"] == "1849/20825"


def test_more_pairs_than_table_matches_is_refused_in_the_chosen_language() -> None:
    args = ["analyze", "last-man-standing", "--table", "2", "--pairs", "3", "--no-plot"]
    english = runner.invoke(app, args, env={"COLUMNS": "200"})
    japanese = runner.invoke(app, [*args, "--lang", "ja"], env={"COLUMNS": "200"})
    assert english.exit_code == japanese.exit_code == 1
    assert "--pairs cannot exceed --table" in english.output
    assert "--pairs は --table 以下にしてください" in japanese.output and "cannot" not in japanese.output
