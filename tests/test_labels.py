"""Every name a game shows has a label in both languages, in its one catalog (`Game.labels`), which the
terminal and the web client both read."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum

import pytest

from partygames import games
from partygames.engine.actions import sample
from partygames.engine.game import Game
from partygames.engine.session import Session

GAME_IDS = games.ids()
WAKE_CHANCE = 0.1


@dataclass
class Shown:
    """The keys random matches of a game showed: action types and parameters of the legal specs, view
    phases, result terminations and holdings."""

    actions: set[str] = field(default_factory=set)
    params: set[str] = field(default_factory=set)
    phases: set[str] = field(default_factory=set)
    terminations: set[str] = field(default_factory=set)
    holdings: set[str] = field(default_factory=set)


def _shown(game: Game) -> Shown:
    """Plays the game's conformance set-ups (every variant the game samples) with random actions."""
    shown = Shown()
    conf = game.samples.conformance
    for seats in conf.seat_counts(game.seat_counts):
        for seed in range(conf.seeds):
            rng = random.Random(seed)
            session = Session.new(game, seats, dict(conf.options), seed)
            match = session.match
            while not match.is_over:
                view = match.view(None)
                if "phase" in view:
                    shown.phases.add(view["phase"])
                awaited = match.to_act()
                for seat in awaited:
                    for spec in match.legal_actions(seat):
                        shown.actions.add(spec["type"])
                        shown.params.update(spec["params"])
                due = match.wake_at()
                # As the conformance suite does: time moves on now and then even while seats are awaited
                # (in a real-time game someone always is), and always when nobody is.
                if awaited and (due is None or rng.random() >= WAKE_CHANCE):
                    seat = rng.choice(awaited)
                    at = match.now + rng.randrange(3) * 500
                    session.act(seat, sample(match.legal_actions(seat), rng), at if due is None else min(at, due))
                else:
                    assert due is not None
                    session.wake(due)
            view = match.view(None)
            shown.phases.add(view.get("phase", "over"))
            result = match.result()
            assert result is not None
            shown.terminations.add(result.termination)
            for seat_result in result.seats:
                shown.holdings.update(seat_result.holdings)
    return shown


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_everything_a_game_shows_has_a_label_in_both_languages_and_nothing_else_has(game_id: str) -> None:
    game = games.get(game_id)
    labels, shown = game.labels, _shown(game)
    for name, table, keys in (("actions", labels.actions, shown.actions), ("params", labels.params, shown.params),
                              ("phases", labels.phases, shown.phases),
                              ("terminations", labels.terminations, shown.terminations),
                              ("holdings", labels.holdings, shown.holdings)):
        assert keys <= set(table), f"{game_id}: no {name} label for {sorted(keys - set(table))}"
        assert all(text.en and text.ja for text in table.values()), f"{game_id}: a {name} label lacks a language"
        # A label for something the sampled matches never showed is stale, or its variant is not sampled
        # (add it to the conformance set-up). Terminations are checked against the game's enum instead.
        if name != "terminations":
            assert set(table) <= keys, f"{game_id}: {name} labels for what no match showed: {sorted(set(table) - keys)}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_termination_is_a_member_of_the_game_s_enum_and_has_a_label(game_id: str) -> None:
    terminations = games.get(game_id).labels.terminations
    kinds = {type(key) for key in terminations}
    assert len(kinds) == 1, f"{game_id}: the termination labels are keyed by one StrEnum, not {kinds}"
    enum = kinds.pop()
    assert issubclass(enum, StrEnum) and set(terminations) == set(enum)


def test_the_labels_reach_the_web_client_in_the_game_info() -> None:
    for game in games.all_games():
        info = game.info()["labels"]
        assert info["actions"] == {key: text.to_json() for key, text in game.labels.actions.items()}
        assert set(info["terminations"]) == set(game.labels.terminations)
