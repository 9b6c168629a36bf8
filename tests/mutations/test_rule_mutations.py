"""Planted mutations (issue 29): each rule test named here passes as the code is, and fails once its rule
is broken in the rules code. A mutation is a one-line change of the rule's own source (the function is
recompiled from its source with one snippet replaced, and patched in for the test), or of the rule's
data (a preset, a set of phases). The table is also in docs/rules/<game>.md ("Rules and their planted
mutations"). Fast: each rule test runs twice, a second or less each."""

from __future__ import annotations

import inspect
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest

from partygames.games import get
from partygames.games.dice_derby import rules as dice_derby_rules
from partygames.games.dice_derby.rules import DiceDerbyMatch
from partygames.games.lucky_nine.rules import LuckyNineMatch
from partygames.games.pandemic.rules import PandemicMatch
from partygames.games.quiz import rules as quiz_rules
from partygames.games.quiz.rules import QuizMatch
from tests.games import test_dice_derby_rules as dice_derby
from tests.games import test_lucky_nine_rules as lucky_nine
from tests.games import test_musical_chairs_gather as musical_chairs
from tests.games import test_pandemic_rules as pandemic
from tests.games import test_quiz_rules as quiz


def mutant(owner: Any, name: str, old: str, new: str) -> Any:
    """`owner.name` (a method of a class, or a module's function) recompiled from its source with the one
    occurrence of `old` replaced by `new`, in its module's globals."""
    original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
    source = textwrap.dedent(inspect.getsource(original))
    assert source.count(old) == 1, f"{name}: the snippet to mutate occurs {source.count(old)} times"
    namespace: dict[str, Any] = {}
    module = sys.modules[original.__module__]
    exec(compile(source.replace(old, new), f"<mutant of {name}>", "exec"), dict(vars(module)), namespace)
    return namespace[name]


@dataclass(frozen=True)
class Mutation:
    """The rule test, and what the mutation changes: `owner.name`'s source (`old` -> `new`), or, with
    `value`, `owner.name` (an attribute) or `owner[name]` (a mapping's item) set to it."""

    test: Callable[[], None]
    owner: Any
    name: str
    old: str = ""
    new: str = ""
    value: Any = None

    @property
    def id(self) -> str:
        return self.test.__name__.removeprefix("test_")

    def plant(self, monkeypatch: pytest.MonkeyPatch) -> None:
        if self.value is not None:
            if isinstance(self.owner, dict):
                monkeypatch.setitem(self.owner, self.name, self.value)
            else:
                monkeypatch.setattr(self.owner, self.name, self.value)
            return
        monkeypatch.setattr(self.owner, self.name, mutant(self.owner, self.name, self.old, self.new))


def _preset_without(game_id: str, key: str) -> Any:
    preset = get(game_id).presets["original"]
    return replace(preset, options={k: v for k, v in preset.options.items() if k != key})


MUTATIONS = [
    # -- It's a QUIZ? ---------------------------------------------------------------------------------------
    Mutation(quiz.test_selection_places_one_held_marker_of_either_kind_on_a_face_down_white_card,
             QuizMatch, "_do_place", "self.held[seat][kind] -= 1", "self.held[seat][kind] -= 0"),
    Mutation(quiz.test_selection_skips_the_seats_that_passed,
             QuizMatch, "_next_turn", "if self.passed[seat]:", "if False:"),
    Mutation(quiz.test_the_parent_opens_only_a_least_marked_card,
             QuizMatch, "least_marked", "if n == fewest]", "if n >= fewest]"),
    Mutation(quiz.test_opening_a_card_returns_every_marker_on_the_cards_to_the_stock,
             QuizMatch, "_open_card", "self.stock[kind] += markers[kind]", "self.stock[kind] += 0"),
    Mutation(quiz.test_a_seat_that_writes_nothing_peeks,
             QuizMatch, "_time_limit", '{s: {"type": "peek"} for s in primary}',
             '{s: {"type": "secret_money"} for s in primary}'),
    Mutation(quiz.test_every_card_open_in_the_tie_break_the_last_right_caller_wins,
             QuizMatch, "_do_call", "return events + self._over(seat, Termination.TIE_BREAK)", "pass"),
    Mutation(quiz.test_secret_money_scores_nothing_at_the_end,
             QuizMatch, "totals", 'self.held[s]["score"] + (PRIZE',
             'self.held[s]["score"] + self.held[s]["money"] + (PRIZE'),
    Mutation(quiz.test_a_seat_may_give_markers_whenever_it_holds_some_answering_included,
             quiz_rules, "GIVING_PHASES", value=quiz_rules.GIVING_PHASES - {"answer"}),
    Mutation(quiz.test_no_gift_while_memorising_nor_in_the_tie_break,
             quiz_rules, "GIVING_PHASES", value=quiz_rules.GIVING_PHASES | {"tiebreak"}),
    # -- Dice Derby -----------------------------------------------------------------------------------------
    Mutation(dice_derby.test_a_win_ticket_pays_only_on_the_winner_not_on_the_second,
             DiceDerbyMatch, "_close_betting_and_run",
             'events.append(self._settle("win", str(run.first), tickets, paid))',
             'events.append(self._settle("win", str(run.first), tickets, paid)); '
             'events.append(self._settle("win", str(run.second), tickets, paid))'),
    Mutation(dice_derby.test_winnings_and_prizes_of_a_race_may_be_staked_in_the_next,
             DiceDerbyMatch, "_legal_actions", "cash = self.money[seat] + loans * o.loan_amount",
             "cash = min(self.money[seat], o.starting_money) + loans * o.loan_amount"),
    Mutation(dice_derby.test_a_seat_that_declared_done_may_neither_buy_nor_cancel_and_its_tickets_stand,
             DiceDerbyMatch, "to_act", "waiting = tuple(s for s, done in enumerate(self.done) if not done)",
             "waiting = tuple(range(self.seats))"),
    Mutation(dice_derby.test_simplified_odds_round_down_to_easy_values_and_are_what_tickets_pay,
             dice_derby_rules, "odds_table", "if simple:", "if False:"),
    # -- Lucky Nine -----------------------------------------------------------------------------------------
    Mutation(lucky_nine.test_a_disqualified_player_in_the_middle_of_the_order_is_skipped_in_later_laps,
             LuckyNineMatch, "_advance", "if status[seat] == ACTIVE:", "if status[seat] != DROPPED:"),
    Mutation(lucky_nine.test_the_result_ranks_by_diamonds_plus_the_value_of_claimed_prizes,
             LuckyNineMatch, "result", "[float(score) for score in self._scores()]",
             "[float(held) for held in self.holdings]"),
    Mutation(lucky_nine.test_the_results_show_each_player_s_net_gain_or_loss_in_diamonds,
             LuckyNineMatch, "result", '"net": held - start', '"net": held'),
    # -- The Pandemic Game ----------------------------------------------------------------------------------
    Mutation(pandemic.test_the_original_rules_let_nobody_prove_a_status,
             get("pandemic").presets, "original", value=_preset_without("pandemic", "public_contacts")),
    Mutation(pandemic.test_the_original_rules_let_nobody_prove_a_status,
             PandemicMatch, "step_witnesses", "return None if public_contacts else seen | frozenset(ended)",
             "return None"),
    # -- Musical Chairs -------------------------------------------------------------------------------------
    Mutation(lambda: musical_chairs.test_the_original_rules_count_only_ballots_cast_at_the_totem("original"),
             get("musical-chairs").presets, "original", value=_preset_without("musical-chairs", "vote_at_totem")),
]


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[f"{m.id}-{m.name}" for m in MUTATIONS])
def test_the_rule_test_passes_and_fails_on_its_planted_mutation(mutation: Mutation,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    mutation.test()
    mutation.plant(monkeypatch)
    # The rule test fails, whatever way it fails (an assertion, or a move it expects refused or allowed).
    with pytest.raises(Exception):  # noqa: B017
        mutation.test()
