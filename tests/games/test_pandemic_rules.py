"""The Pandemic Game's rules with worked numbers from the seed (docs/rules/pandemic.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from partygames.engine import IllegalAction, Options
from partygames.engine.log import Entry, MatchLog
from partygames.engine.session import Session, play, wake_ups
from partygames.games import get
from partygames.games.pandemic.odds import from_view
from partygames.games.pandemic.options import PandemicOptions
from partygames.games.pandemic.rules import CONTACT_ACTIONS as CONTACT_TYPES
from partygames.games.pandemic.rules import PandemicMatch
from partygames.games.pandemic.watch import Watch, contact, press

GAME = get("pandemic")


def new(seats: int = 12, infected: tuple[int, ...] = (3, 7), **options: Any) -> PandemicMatch:
    match = GAME.new(seats, options, seed=1, script={"infected": list(infected)})
    assert isinstance(match, PandemicMatch)
    return match


def catch_up(match: PandemicMatch, now: int) -> None:
    """Wakes the match at every wake-up due by `now`, as a host does."""
    while (due := match.wake_at()) is not None and due <= now and not match.is_over:
        match.advance(due)


def touch(match: PandemicMatch, a: int, b: int, now: int) -> None:
    """`a` offers contact to `b`, who accepts at the same moment."""
    catch_up(match, now)
    match.apply(a, {"type": "offer", "target": b}, now)
    match.apply(b, {"type": "accept", "offer": f"{a}@{now}"}, now)


def watches(match: PandemicMatch, *seats: int) -> list[tuple[bool, int]]:
    return [(match.infected[s], match.vaccines[s]) for s in seats]


# -- the watch rules ----------------------------------------------------------------------------------
def test_healthy_pair_gains_one_vaccine_each_once_ever() -> None:
    first = contact(Watch(False, 0), Watch(False, 2), paired_before=False)
    assert first == (Watch(False, 1), Watch(False, 3), True)
    again = contact(first.first, first.second, paired_before=True)
    assert again == (Watch(False, 1), Watch(False, 3), False)


def test_healthy_without_vaccine_is_infected_and_the_infected_stays_so() -> None:
    assert contact(Watch(False, 0), Watch(True, 2), False)[:2] == (Watch(True, 0), Watch(True, 2))
    assert contact(Watch(True, 1), Watch(False, 0), False)[:2] == (Watch(True, 1), Watch(True, 0))


def test_healthy_with_vaccines_loses_one_and_cures_the_infected() -> None:
    assert contact(Watch(False, 3), Watch(True, 0), False)[:2] == (Watch(True, 2), Watch(False, 0))
    assert contact(Watch(True, 4), Watch(False, 1), False)[:2] == (Watch(False, 4), Watch(True, 0))


def test_two_infected_change_nothing() -> None:
    assert contact(Watch(True, 2), Watch(True, 0), False)[:2] == (Watch(True, 2), Watch(True, 0))


def test_the_switch_cures_only_an_infected_watch_with_a_vaccine() -> None:
    assert press(Watch(True, 2)) == Watch(False, 1)
    assert press(Watch(True, 0)) == Watch(True, 0)
    assert press(Watch(False, 3)) == Watch(False, 3)


# -- a match ------------------------------------------------------------------------------------------
def test_start_two_secret_infected_no_vaccines_and_one_in_six_odds() -> None:
    match = new()
    assert match.infected == [s in (3, 7) for s in range(12)] and match.vaccines == [0] * 12
    public = match.view(None)
    assert public["odds"] == {"worlds": 66, "infected": [11] * 12}  # C(12, 2) = 66 worlds, 1/6 each
    for seat in (None, 3, 7):
        text = json.dumps(match.view(seat))
        assert "watches" not in text and "initial_infected" not in text and "history" not in text
    assert match.to_act() == tuple(range(12))


def test_a_chain_of_contacts_follows_the_seed() -> None:
    match = new()
    touch(match, 0, 1, 1_000)  # healthy + healthy: a vaccine each
    touch(match, 1, 3, 7_000)  # 1 holds a vaccine, 3 is infected: 1 loses it and is infected, 3 is cured
    assert watches(match, 0, 1, 3) == [(False, 1), (True, 0), (False, 0)]
    touch(match, 0, 1, 13_000)  # 0 (one vaccine) meets infected 1: the infection moves back
    assert watches(match, 0, 1) == [(True, 0), (False, 0)]
    touch(match, 0, 7, 19_000)  # infected + infected: nothing
    assert watches(match, 0, 7) == [(True, 0), (True, 0)]
    touch(match, 1, 3, 25_000)  # both healthy now, a new vaccine for each (1 and 3 never gained together)
    assert watches(match, 1, 3) == [(False, 1), (False, 1)]
    touch(match, 1, 3, 31_000)  # the same pair again: nothing more
    assert watches(match, 1, 3) == [(False, 1), (False, 1)]
    public = match.view(None)
    assert [(e["a"], e["b"], e["t"]) for e in public["log"]] == [
        (0, 1, 1_000), (1, 3, 7_000), (0, 1, 13_000), (0, 7, 19_000), (1, 3, 25_000), (1, 3, 31_000)]


def test_a_press_is_public_but_its_effect_is_not() -> None:
    match = new()
    touch(match, 2, 4, 0)
    touch(match, 2, 3, 6_000)  # 2 loses its vaccine and is infected; 3 is cured
    touch(match, 2, 5, 12_000)  # 5 has none: infected
    touch(match, 5, 6, 18_000)  # 6 infected
    touch(match, 4, 8, 24_000)  # 4 and 8 healthy: 4 has 2, 8 has 1
    touch(match, 4, 5, 30_000)  # 4 loses one and is infected, 5 is cured
    assert watches(match, 4, 5) == [(True, 1), (False, 0)]
    events = match.apply(4, {"type": "press"}, 31_000)
    assert watches(match, 4) == [(False, 0)]
    assert [(e.type, e.data, e.to) for e in events] == [("pressed", {"t": 31_000, "seat": 4}, None)]
    match.apply(4, {"type": "press"}, 32_000)  # healthy: nothing happens
    assert watches(match, 4) == [(False, 0)]


def test_an_offer_lapses_after_15_seconds_but_counts_at_the_15th() -> None:
    match = new()
    match.apply(0, {"type": "offer", "target": 1}, 2_000)
    assert match.wake_at() == 17_000
    trial = match.clone()
    trial.apply(1, {"type": "accept", "offer": "0@2000"}, 17_000)
    assert trial.vaccines[:2] == [1, 1]
    events = match.advance(17_000)
    assert [(e.type, e.data["reason"], e.to) for e in events] == [("offer_lapsed", "expired", (0, 1))]
    assert match.view(1)["offers_to_me"] == []
    with pytest.raises(IllegalAction):
        match.apply(1, {"type": "accept", "offer": "0@2000"}, 17_500)


def test_offers_are_private_to_the_two_and_a_stale_click_is_refused() -> None:
    match = new()
    match.apply(0, {"type": "offer", "target": 1}, 1_000)
    assert match.view(1)["offers_to_me"] == [{"id": "0@1000", "from": 0, "to": 1, "at": 1_000}]
    assert "0@1000" not in json.dumps(match.view(2)) and "0@1000" not in json.dumps(match.view(None))
    match.apply(0, {"type": "withdraw"}, 2_000)
    match.apply(0, {"type": "offer", "target": 1}, 3_000)
    before = json.dumps(match.to_json())
    with pytest.raises(IllegalAction):
        match.apply(1, {"type": "accept", "offer": "0@1000"}, 3_000)
    assert json.dumps(match.to_json()) == before


def test_offering_back_is_accepting_and_starting_another_contact_lapses_offers() -> None:
    match = new()
    match.apply(0, {"type": "offer", "target": 1}, 1_000)
    match.apply(2, {"type": "offer", "target": 1}, 1_000)
    events = match.apply(1, {"type": "offer", "target": 0}, 2_000)
    assert [e.type for e in events] == ["offer_lapsed", "contact"]  # 2's offer to 1 lapses
    assert match.vaccines[:3] == [1, 1, 0] and match.offers == {}


def test_a_seat_is_busy_for_5_seconds_after_a_contact() -> None:
    match = new()
    touch(match, 0, 1, 1_000)
    types = {s["type"] for s in match.legal_actions(0)}
    assert "offer" not in types and "accept" not in types
    assert match.wake_at() == 6_000
    match.advance(6_000)
    assert "offer" in {s["type"] for s in match.legal_actions(0)}


def test_a_room_reads_the_watch_after_15_seconds_and_ends_the_stay_at_60() -> None:
    match = new(rooms=1)
    match.apply(3, {"type": "visit"}, 1_000)
    match.apply(5, {"type": "visit"}, 2_000)  # the only room is taken: 5 queues
    public = match.view(None)
    assert public["inside"] == [{"seat": 3, "room": 1, "since": 1_000}] and public["queue"] == [5]
    assert match.wake_at() == 16_000
    events = match.advance(16_000)
    assert [(e.type, e.data, e.to) for e in events] == [
        ("watch_read", {"seat": 3, "t": 16_000, "infected": True, "vaccines": 0}, (3,))]
    assert match.view(3)["readings"] == [{"t": 16_000, "infected": True, "vaccines": 0, "after": 0}]
    assert match.view(3)["my_odds"]["worlds"] == 11  # the 11 worlds in which seat 3 was infected
    assert "readings" not in match.view(None) and match.view(4)["readings"] == []
    events = match.advance(61_000)  # the stay is over; 5 enters from the queue
    assert [e.type for e in events] == ["left", "entered"]
    assert match.view(None)["inside"] == [{"seat": 5, "room": 1, "since": 61_000}]


def test_entering_a_room_lapses_offers_and_nobody_offers_to_a_seat_inside() -> None:
    match = new()
    match.apply(0, {"type": "offer", "target": 1}, 1_000)
    events = match.apply(1, {"type": "visit"}, 2_000)
    assert [(e.type, e.data.get("reason")) for e in events] == [("offer_lapsed", "room"), ("entered", None)]
    offer = next(s for s in match.legal_actions(0) if s["type"] == "offer")
    assert 1 not in offer["params"]["target"]["choice"]


def test_end_the_six_healthy_with_most_vaccines_pass_ties_by_lot() -> None:
    match = new(minutes=5)
    touch(match, 0, 1, 0)
    touch(match, 2, 4, 0)
    touch(match, 0, 2, 10_000)  # 0 and 2: two each; 1 and 4: one each
    touch(match, 5, 6, 10_000)  # 5, 6: one each; 8, 9, 10, 11: none; 3 and 7 infected
    # Six places: 0 and 2 (two vaccines), then the four with one; no tie at the cut.
    events = match.advance(300_000)
    assert events[-1].type == "time_up"
    result = match.result()
    assert result is not None and result.termination == "time_up"
    assert result.winners == (0, 1, 2, 4, 5, 6)
    assert [s.score for s in result.seats] == [2, 1, 2, -1, 1, 1, 1, -1, 0, 0, 0, 0]
    assert result.seats[0].rank == 1 and result.seats[1].rank == 3 and result.seats[3].rank == 11
    assert match.to_act() == () and match.is_over


def test_a_tie_at_the_cut_is_drawn_by_lot_or_all_pass() -> None:
    for cut_ties, expected in (("lot", (0, 1, 2, 5, 8, 11)), ("all", (0, 1, 2, 4, 5, 6, 8, 9, 10, 11))):
        match = new(minutes=5, cut_ties=cut_ties)
        touch(match, 0, 1, 0)
        touch(match, 0, 2, 6_000)  # 0: two; 1, 2: one; everyone else healthy but 3, 7: none
        match.chance.script("cut", [5, 11, 8, 4, 6, 9, 10])
        match.advance(300_000)
        result = match.result()
        assert result is not None and result.winners == expected
        assert result.detail["cut_lot"] == ([5, 11, 8, 4, 6, 9, 10] if cut_ties == "lot" else None)


def test_fewer_healthy_than_places_only_they_pass_and_zero_vaccines_can_pass() -> None:
    match = new(seats=5, infected=(0, 1), minutes=5, qualifiers=4)
    touch(match, 0, 2, 0)  # 2 infected
    match.advance(300_000)
    result = match.result()
    assert result is not None and result.winners == (3, 4)
    assert result.seats[3].holdings == {"status": "healthy", "vaccines": 0, "passed": True, "infected_at_start": False}
    over = match.view(None)
    assert over["watches"][2] == {"infected": True, "vaccines": 0}
    assert {"t": 0, "seat": 2, "infected": True, "vaccines": 0, "cause": "contact"} in over["history"]


def test_the_end_voids_offers_and_a_visit_gives_no_reading() -> None:
    match = new(minutes=5)
    match.apply(0, {"type": "offer", "target": 1}, 299_000)
    match.apply(2, {"type": "visit"}, 290_000 + 9_500)
    events = match.advance(300_000)
    assert [e.type for e in events] == ["time_up"]
    assert match.readings[2] == [] and match.offers == {}


def test_an_action_after_a_missed_wake_up_sees_it_first_or_is_refused_untouched() -> None:
    match = new()
    match.apply(0, {"type": "offer", "target": 1}, 1_000)
    before = json.dumps(match.to_json())
    with pytest.raises(IllegalAction):
        match.apply(1, {"type": "accept", "offer": "0@1000"}, 20_000)  # it lapsed at 16,000
    assert json.dumps(match.to_json()) == before
    events = match.apply(1, {"type": "press"}, 20_000)
    assert [e.type for e in events] == ["offer_lapsed", "pressed"]


def test_private_contacts_and_presses_are_told_to_those_involved_only() -> None:
    match = new(public_contacts=False, public_presses=False)
    touch(match, 0, 1, 1_000)
    match.apply(2, {"type": "press"}, 2_000)
    assert match.view(None)["log"] == [] and match.view(None)["odds"] is None
    assert [e["kind"] for e in match.view(0)["log"]] == ["contact"]
    assert [e["kind"] for e in match.view(2)["log"]] == ["press"]
    assert match.view(5)["busy_until"] == [0] * 12 and match.view(0)["busy_until"][0] == 6_000


# -- rounds -------------------------------------------------------------------------------------------
def test_rounds_intents_are_sealed_then_carried_out_in_an_order_drawn_by_lot() -> None:
    match = new(seats=4, infected=(3,), tempo="rounds", step_seconds=5)
    intents = {0: "offer:1", 1: "offer:0", 2: "visit", 3: "offer:1"}
    for seat in (0, 1, 2):
        match.apply(seat, {"type": "intend", "intent": intents[seat]})
        assert match.view(3)["submitted"] == list(range(seat + 1)) and match.view(3)["my_intent"] is None
        assert intents[seat] not in json.dumps(match.view(None))
    assert match.view(0)["my_intent"] == "offer:1"
    match.chance.script("order", [3, 1, 0, 2])
    events = match.apply(3, {"type": "intend", "intent": intents[3]})
    # 3 offers to 1; 1 offers to 0 (3's offer to 1 lapses); 0 offers to 1, which is 1's acceptance.
    assert [e.type for e in events] == ["intent_submitted", "step_order", "offered", "offer_lapsed", "offered",
                                        "contact", "entered"]
    assert match.vaccines == [1, 1, 0, 0] and match.step == 1 and match.t == 5_000
    assert match.view(None)["log"] == [{"t": 0, "kind": "contact", "a": 0, "b": 1}]


def test_rounds_an_intent_made_impossible_earlier_in_the_step_is_void() -> None:
    match = new(seats=4, infected=(3,), tempo="rounds", rooms=1)
    match.chance.script("order", [0, 1, 2, 3])
    events = []
    for seat, intent in enumerate(["visit", "visit", "wait", "offer:0"]):
        events += match.apply(seat, {"type": "intend", "intent": intent})
    # 0 took the only room, 1 queued, and 3's offer to 0 (inside now) is void, told to 3 alone.
    assert match.view(None)["inside"][0]["seat"] == 0 and match.queue == [1] and match.offers == {}
    assert [(e.type, e.data, e.to) for e in events if e.type == "intent_void"] == [
        ("intent_void", {"step": 0, "intent": "offer:0"}, (3,))]


def test_rounds_time_limit_defaults_to_waiting_and_the_game_ends_on_time() -> None:
    match = new(seats=4, infected=(3,), tempo="rounds", step_seconds=60, minutes=5)
    limit = match.time_limit()
    assert limit is not None and limit.seconds == 60 and limit.defaults[0] == {"type": "intend", "intent": "wait"}
    now = 0
    while not match.is_over:
        now = match.wake_at() or now
        match.advance(now)
    assert match.step == 5 and match.t == 300_000 and match.result() is not None


# -- odds ---------------------------------------------------------------------------------------------
def test_public_odds_follow_the_log_from_the_public_view_alone() -> None:
    match = new()
    touch(match, 0, 1, 0)
    # Seat 0 and 1 both healthy in the worlds where neither was infected: 45 of 66.
    touch(match, 1, 2, 6_000)
    view = match.view(None)
    worlds = from_view(view)
    assert worlds.odds(None) == view["odds"]
    # Seat 2 is infected now where 0 or 1 was and 2 was not (19 worlds: {0, 1} and nine each with one of
    # them), and where 2 was with 0 or 1 (2 worlds); with 2 and another seat, 1 held a vaccine and cured it.
    assert view["odds"]["infected"][2] == 21


def test_public_contacts_can_make_a_seat_s_infection_certain_and_the_odds_say_so() -> None:
    """docs/rules (public odds may reach 0% or 100%). Four seats, one infected (4 worlds): 2 touches 0, then 0
    touches 3, then 1. Worlds {0} and {2}: 0 infects 2 (or 2 infects 0), then 3 and 1. Worlds {1} and {3}: 0
    gains vaccines from the healthy pairs, spends one curing 3 (or 1) and is infected by it. So 0 is infected
    in all 4 worlds; 1 in 3 (all but {1}), 2 and 3 in 2."""
    match = GAME.new(4, {"infected": 1}, seed=1, script={"infected": [3]})
    assert isinstance(match, PandemicMatch)
    touch(match, 2, 0, 0)
    touch(match, 0, 3, 6_000)
    touch(match, 0, 1, 12_000)
    assert match.view(None)["odds"] == {"worlds": 4, "infected": [4, 3, 2, 2]}
    assert match.infected[0]


def _public_steps(log: MatchLog, infected: list[int] | None,
                  skip: frozenset[str] = frozenset()) -> Iterator[tuple[Entry, PandemicMatch, dict[str, Any]]]:
    """Replays `log` (leaving out the actions whose type is in `skip`) from a match whose initial infected
    set is `infected` (None: the log's own draw), yielding after each entry the match and its public view,
    the view's `version` counted as the server counts it for the public: the steps the public witnessed
    (docs/server.md, Versions)."""
    session = Session(GAME, GAME.new(log.seats, log.options, log.seed, bots=log.bots,
                                     script=None if infected is None else {"infected": infected}))
    public = 0
    for entry in log.entries:
        if entry.action is not None and entry.action["type"] in skip:
            continue
        match = session.match
        # A host wakes a match only when something falls due (where nobody touched, less does).
        if entry.seat is None:
            for at in wake_ups(match, entry.at):
                public += match.step_witnesses(None, None, session.wake(at)) is None
        else:
            public += match.step_witnesses(entry.seat, entry.action, session.replay_entry(entry)) is None
        assert isinstance(match, PandemicMatch)
        if not match.is_over:
            view = {k: v for k, v in match.view(None).items() if k not in PandemicMatch.VIEW_CLOCK_KEYS}
            yield entry, match, {**view, "version": public}


def test_the_original_rules_let_nobody_prove_a_status() -> None:
    """「自分のステータスがどうであるかを他人に証明することは出来ず、また他人のステータスを知ることも出来ません」
    (docs/rules/pandemic.md, The default table). Twelve greedy bots (they contact whoever likeliest gives a
    vaccine) play the lobby's "Original rules". With the default's public contacts the same play makes a
    seat's status certain to everyone after 30 s; under the original rules the public sees, at every step,
    exactly what it would see had nobody touched anybody, from any initial infected set: six of them, so
    that every seat is infected at the start in one and healthy in the five others, and, untouched, stays
    so. So whatever anyone claims, no seat's status follows from what the table sees."""
    def greedy(options: Options) -> MatchLog:
        return play(GAME, seats, [GAME.make_bot("greedy", s, s) for s in range(seats)], options, seed=5)[1]

    seats, options = GAME.preset_table("original")
    assert isinstance(options, PandemicOptions) and (seats, options.public_contacts) == (12, False)
    proved = next(match.t for _, match, view in _public_steps(greedy(GAME.options_for(seats, {})), None)
                  if {0, view["odds"]["worlds"]} & set(view["odds"]["infected"]))
    assert proved == 30_000  # a seat's odds of being infected reach 0 (or 100%) at the default table
    log = greedy(options)
    assert sum(e.action is not None and e.action["type"] == "accept" for e in log.entries) > 50
    untouched = [_public_steps(log, [2 * k, 2 * k + 1], CONTACT_TYPES) for k in range(seats // 2)]
    steps = 0
    for entry, _, view in _public_steps(log, None):
        if entry.action is not None and entry.action["type"] in CONTACT_TYPES:
            continue  # left out of the worlds without contacts
        worlds = [next(world) for world in untouched]
        assert all(w_entry == entry and w_view == view for w_entry, _, w_view in worlds), entry
        steps += 1
    assert steps > 100
    for k, (_, world, _) in enumerate(worlds):
        assert [s for s in range(seats) if world.infected[s]] == [2 * k, 2 * k + 1]


def test_a_seat_in_the_queue_may_touch_and_be_touched() -> None:
    """docs/rules: only a seat inside a room is out of reach; the queue is standing at the door."""
    match = new(rooms=1)
    match.apply(1, {"type": "visit"}, 1_000)
    match.apply(2, {"type": "visit"}, 1_000)
    assert match.view(None)["queue"] == [2]
    touch(match, 2, 4, 2_000)
    touch(match, 5, 2, 8_000)
    assert [(entry["kind"], entry["a"], entry["b"]) for entry in match.view(None)["log"]] == [
        ("contact", 2, 4), ("contact", 2, 5)]  # a contact names its seats in seat order
    assert match.view(None)["queue"] == [2]


# -- the televised variant ----------------------------------------------------------------------------
def test_periods_break_with_the_counts_announced_and_the_odds_follow() -> None:
    match = new(minutes=2, periods=2, break_seconds=60, vaccine_threshold=1)
    touch(match, 0, 3, 1_000)  # 3 is infected, 0 catches it: three infected now
    match.apply(4, {"type": "offer", "target": 5}, 50_000)
    match.apply(6, {"type": "visit"}, 50_000)
    assert match.wake_at() == 60_000  # the period ends before the reading (65,000)
    events = match.advance(60_000)
    assert [e.type for e in events] == ["offer_lapsed", "left", "period_over"]
    assert events[-1].data == {"period": 0, "t": 60_000, "healthy": 9, "infected": 3}
    assert match.to_act() == () and match.view(None)["phase"] == "break" and match.wake_at() == 120_000
    assert match.readings[6] == [] and match.inside == {}
    # Three infected: exactly one of 0 and 3 was infected at the start (20 of the 66 worlds), so both are now.
    odds = match.view(None)["odds"]
    assert odds["worlds"] == 20 and odds["infected"][0] == odds["infected"][3] == 20
    assert odds["infected"][5] == 2  # infected with 0 or with 3 at the start
    assert from_view(match.view(None)).odds(None) == odds
    assert [e.type for e in match.advance(120_000)] == ["period_started"]
    assert match.to_act() == tuple(range(12))
    touch(match, 1, 2, 130_000)
    match.advance(180_000)
    result = match.result()
    assert result is not None and match.t == 180_000
    assert result.winners == (1, 2)  # the healthy seats holding at least one vaccine


def test_rounds_skip_the_break() -> None:
    match = new(seats=4, infected=(3,), tempo="rounds", step_seconds=20, minutes=1, periods=2, break_seconds=30)
    for _ in range(2):  # rounds at 0 and 20 s; the period ends at 30 s
        for seat in range(4):
            match.apply(seat, {"type": "intend", "intent": "wait"})
    assert match.period == 1 and match.t == 60_000 and not match.on_break
    assert [a["t"] for a in match.view(None)["announcements"]] == [30_000]
    while not match.is_over:
        for seat in match.to_act():
            match.apply(seat, {"type": "intend", "intent": "wait"})
    assert match.t == 90_000


def test_an_action_arriving_after_a_period_ended_is_refused_untouched() -> None:
    match = new(minutes=2, periods=2)
    match.apply(0, {"type": "offer", "target": 1}, 59_000)
    before = json.dumps(match.to_json())
    with pytest.raises(IllegalAction) as refused:
        match.apply(1, {"type": "accept", "offer": "0@59000"}, 61_000)
    assert refused.value.ja and json.dumps(match.to_json()) == before
