"""The Pandemic Game in the terminal: the events name the seats as the table names them ("Bot Aoi offers
contact to you"), by number where there is no name, in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from partygames.cli import main as cli_main
from partygames.engine.names import seat_names
from partygames.games import get
from partygames.games.pandemic.terminal import describe_event

GAME = get("pandemic")


def test_an_offer_names_both_seats_else_their_numbers() -> None:
    match = GAME.new(4, {}, seed=1)
    offered = next(e.to_json() for e in match.apply(1, {"type": "offer", "target": 0}) if e.type == "offered")
    names = {lang: seat_names(4, {1}, lang, you=0) for lang in ("en", "ja")}
    assert describe_event(offered, "en", names["en"]) == "Bot Aoi offers contact to you"
    assert describe_event(offered, "ja", names["ja"]) == "ボット アオイがあなたに接触を申し出た"
    assert describe_event(offered, "en") == "Seat 1 offers contact to seat 0"
    assert describe_event(offered, "ja", []) == "席 1が席 0に接触を申し出た"


def test_you_agree_with_the_verb_and_own_your_offers() -> None:
    names = seat_names(4, {1}, "en", you=0)
    declined = {"type": "declined", "to": None, "data": {"offer": 1, "from": 0, "to": 1}}
    assert describe_event(declined, "en", names) == "Bot Aoi declined your offer"
    assert describe_event(declined, "en") == "Seat 1 declined seat 0's offer"
    lapsed = {"type": "offer_lapsed", "to": None, "data": {"offer": 1, "from": 0, "to": 1}}
    assert describe_event(lapsed, "en", names) == "Your offer to Bot Aoi lapsed"
    assert describe_event(lapsed, "ja", seat_names(4, {1}, "ja", you=0)) == "あなたからボット アオイへの申し出が失効"
    queued = {"type": "queued", "to": None, "data": {"seat": 0, "position": 1}}
    assert describe_event(queued, "en", names) == "You wait for a room"
    assert describe_event(queued, "en") == "Seat 0 waits for a room"
    time_up = {"type": "time_up", "to": None, "data": {"t": 0, "passed": [0, 3], "cut_lot": None}}
    assert describe_event(time_up, "en", names) == "Time up: you, seat 3 qualify"
    assert describe_event(time_up, "ja", seat_names(4, {1}, "ja", you=0)) == "時間切れ: 予選突破はあなた、席 3"
    nobody: dict[str, Any] = {"type": "time_up", "to": None, "data": {"t": 0, "passed": [], "cut_lot": None}}
    assert describe_event(nobody, "en") == "Time up: nobody qualifies"


def test_a_round_s_moves_keep_their_keys_from_round_to_round_at_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 1 offers contact to Bot Aoi as o2; in round 2 Withdraw is 5 and the offer to Bot Aoi is still
    o2, whatever else came and went."""
    monkeypatch.setattr(cli_main.out, "width", 80)  # the CLI console took its width when first imported
    from typer.testing import CliRunner

    from partygames.cli.main import app

    result = CliRunner().invoke(app, ["play", "pandemic", "--seed", "1"], input="o2\n5\nq\ny\n", env={"COLUMNS": "80"})
    menus = result.output.split("Choose this round's move")[1:]
    assert "  o2) Offer contact to Bot Aoi" in menus[0] and "  1) Wait" in menus[0]
    assert "  5) Withdraw your offer" in menus[1] and "  o2) Offer contact to Bot Aoi" in menus[1]
    assert "  1) Wait" in menus[1] and "  2) Press the switch" in menus[1]


def test_a_standing_plan_plays_a_whole_game_in_one_prompt_and_the_last_screen_names_no_round_past_the_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`i` (wait, letting offers lapse, until anything else happens) needs no other answer while nothing
    happens to the player: a whole game of 96 rounds in one prompt; `w` stops at an offer to the player."""
    monkeypatch.setattr(cli_main.out, "width", 80)  # the CLI console took its width when first imported
    from typer.testing import CliRunner

    from partygames.cli.main import app

    result = CliRunner().invoke(app, ["play", "pandemic", "--seed", "1"], input="i\n", env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert result.output.count("This round's move [") == 1 and "Result" in result.output
    assert "i) Wait, round after round, letting offers to you lapse" in result.output
    assert "Round 97" not in result.output
    waiting = CliRunner().invoke(app, ["play", "pandemic", "--seed", "1"], input="w\nq\ny\n", env={"COLUMNS": "80"})
    after = waiting.output.split("Your standing plan ends: something happened to you.", 1)[1]
    assert "offers contact to you" in after.split("Choose this round's move")[0]


def test_a_lapsed_offer_says_why_it_lapsed() -> None:
    """An offer made and gone within one round, before the player could answer, reads as what happened."""
    from partygames.games.pandemic.terminal import describe_event

    names = ["you", "Bot Aoi"]
    said = {reason: describe_event({"type": "offer_lapsed", "data": {"offer": "1@5000", "from": 1, "to": 0,
                                                                    "reason": reason}}, "en", names)
            for reason in ("expired", "withdrawn", "other_contact", "room", "break")}
    assert said["other_contact"] == "Bot Aoi's offer to you lapsed: another offer or contact came first"
    assert str(said["room"]).endswith("lapsed: one of them went to a private room")
    assert str(said["expired"]).endswith("nobody answered in time") and len(set(said.values())) == 5
    ja = describe_event({"type": "offer_lapsed", "data": {"offer": "1@5000", "from": 1, "to": 0, "reason": "room"}},
                        "ja", ["あなた", "ボット アオイ"])
    assert ja == "ボット アオイからあなたへの申し出が失効(どちらかが個室へ)"
