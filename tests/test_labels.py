"""Every name a game shows has a label in both languages, in its one catalog (`Game.labels`), which the
terminal and the web client both read."""

from __future__ import annotations

import functools
import itertools
import random
import re
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

import pytest

from partygames import games
from partygames.engine.actions import sample
from partygames.engine.game import Dynamics, Game
from partygames.engine.match import COMMON_VIEW_KEYS
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
    details: set[str] = field(default_factory=set)
    view: set[str] = field(default_factory=set)


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _keys(data: object) -> set[str]:
    """The keys of a JSON value at any depth (dicts and lists are walked, anything else is a leaf). Walked
    with a stack, a scalar passed over by its type: the real-time games' views (every seat's at every step)
    made the recursive walk most of Musical Chairs' minute here."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.update(item)
            item = item.values()
        elif not isinstance(item, list):
            continue
        for value in item:
            kind = type(value)
            if kind is dict or kind is list or (kind not in _SCALARS and isinstance(value, dict | list)):
                stack.append(value)
    return found


BILINGUAL = {"en", "ja"}  # a text in both languages is a value (the board shows the reader's), not two keys


def _view_keys(view: dict[str, object]) -> set[str]:
    """The keys of a view the generic board names: at any depth, without the keys every view has (the
    room screen shows those) and without keys that are seat numbers or gate pairs ("0", "5-6")."""
    keys = _keys({k: v for k, v in view.items() if k not in COMMON_VIEW_KEYS})
    return {k for k in keys if not k.replace("-", "").isdigit()} - BILINGUAL


def _words(data: object) -> set[str]:
    """The strings of a JSON value at any depth (names a player gave in the options: a prize's)."""
    if isinstance(data, dict):
        return {w for v in data.values() for w in _words(v)}
    if isinstance(data, list | tuple):
        return {w for v in data for w in _words(v)}
    return {data} if isinstance(data, str) else set()


def _shown(game: Game) -> Shown:
    """What the game's conformance set-ups show (`_played`), played once a game per process: two tests read
    it (in one xdist group per game, `_by_game`), and Musical Chairs' plays take most of a minute."""
    return _played(game.id)


@functools.cache
def _played(game_id: str) -> Shown:
    """Plays the game's conformance set-ups (every variant the game samples) with random actions."""
    game = games.get(game_id)
    shown = Shown()
    conf = game.samples.conformance
    real_time = game.dynamics == Dynamics.REAL_TIME
    for seats, seed, options in itertools.product(conf.seat_counts(game.seat_counts), range(conf.seeds),
                                                  conf.option_sets()):
        rng = random.Random(seed)
        given = _words(options)  # a view keyed by a name from the options shows the name itself
        session = Session.new(game, seats, options, seed)
        match = session.match
        while not match.is_over:
            view = match.view(None)
            if "phase" in view:
                shown.phases.add(view["phase"])
            awaited = match.to_act()
            shown.view |= _view_keys(view) - given
            for seat in awaited:
                shown.view |= _view_keys(match.view(seat)) - given
                for spec in match.legal_actions(seat):
                    shown.actions.add(spec["type"])
                    shown.params.update(spec["params"])
            due = match.wake_at()
            if real_time and rng.random() < 0.1:
                # A real-time game awaits every seat at every moment: a second passes now and then.
                assert due is not None
                session.wake(min(due, match.now + 1000))
            elif awaited:
                seat = rng.choice(awaited)
                session.act(seat, sample(match.legal_actions(seat), rng))
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
        shown.details |= _keys(result.detail)
    return shown


def _by_game(ids: list[str]) -> list[object]:
    """The game ids, each in an xdist group of its own game, so that one process plays it (`_played`)."""
    return [pytest.param(g, marks=pytest.mark.xdist_group(f"labels-{g}")) for g in ids]


@pytest.mark.parametrize("game_id", _by_game(GAME_IDS))
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
    # Every detail key is labelled (the terminal's result test renders them); no label is for nothing.
    stale = set(labels.details) - shown.details
    assert not stale, f"{game_id}: details labels for what no result held: {sorted(stale)}"
    assert all(text.en and text.ja for text in (*labels.details.values(), *labels.values.values()))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_termination_is_a_member_of_the_game_s_enum_and_has_a_label(game_id: str) -> None:
    terminations = games.get(game_id).labels.terminations
    kinds = {type(key) for key in terminations}
    assert len(kinds) == 1, f"{game_id}: the termination labels are keyed by one StrEnum, not {kinds}"
    enum = kinds.pop()
    assert issubclass(enum, StrEnum) and set(terminations) == set(enum)


@pytest.mark.parametrize("game_id", _by_game([g.id for g in games.all_games() if g.labels.view]))
def test_a_game_that_names_its_view_names_every_key_its_views_hold(game_id: str) -> None:
    # The web's generic board reads `view_labels()`: the game's `view` table, then its detail, holding
    # and parameter labels and its option titles. A game with a `view` table leaves nothing to humanise.
    game = games.get(game_id)
    shown, named = _shown(game).view, game.view_labels()
    assert shown <= set(named), f"{game_id}: no view label for {sorted(shown - set(named))}"
    stale = set(game.labels.view) - shown
    assert not stale, f"{game_id}: view labels for what no view held: {sorted(stale)}"
    assert all(text.en and text.ja for text in game.labels.view.values())


def test_a_view_key_without_a_view_label_falls_back_to_the_game_s_other_names() -> None:
    smuggling, derby = games.get("smuggling").view_labels(), games.get("dice-derby").view_labels()
    # An option's title (Smuggling's view repeats `small_games`), a detail label, the common "phase".
    assert smuggling["small_games"].ja == games.get("smuggling").options_class.describe()["properties"][
        "small_games"]["title_ja"]
    assert smuggling["phase"].ja == "フェーズ"
    assert derby["payout_rate"].en.startswith("Payout rate") and derby["horses"].ja == "出走馬"
    assert derby["horse"].en == "Your horse"  # the game's own view label wins over the holding's


def test_the_labels_reach_the_web_client_in_the_game_info() -> None:
    for game in games.all_games():
        info = game.info()["labels"]
        assert info["actions"] == {key: text.to_json() for key, text in game.labels.actions.items()}
        assert set(info["terminations"]) == set(game.labels.terminations)
        assert info["view"] == {key: text.to_json() for key, text in game.view_labels().items()}
        # Where the results' scores are money, the client writes them in yen (docs/engine.md, Labels).
        assert info["score_unit"] == ("yen" if game.id in ("smuggling", "musical-chairs") else None), game.id


def test_the_common_view_keys_are_what_every_view_holds_and_what_the_web_leaves_to_the_game() -> None:
    game = games.get("lucky-nine")
    view = game.new(2, None, 0).view(0)
    assert view.keys() >= COMMON_VIEW_KEYS
    generic = (Path(__file__).parents[1] / "src" / "partygames" / "web" / "generic.js").read_text()
    found = re.search(r"export const COMMON_KEYS = new Set\(\[([^\]]*)\]\)", generic)
    assert found is not None
    assert set(re.findall(r'"([a-z_]+)"', found.group(1))) == COMMON_VIEW_KEYS
