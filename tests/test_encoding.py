"""The encoding contract (engine/encoding.py): the action codec's discretisation with worked numbers,
and the conformance check catching broken encoders."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from partygames import games
from partygames.engine.actions import choice, int_range, sequence, spec
from partygames.engine.conformance import ConformanceError, check_playout
from partygames.engine.encoding import ActionCodec, Encoder, Layout, Move, Vector, Writer, as_vector, one_hot
from partygames.engine.match import Match
from partygames.engine.options import Options
from tests import toy_game

BET = [spec("bet_win", horse=choice([1, 2, 3]), amount=int_range(100, 9000, 100)), spec("done")]


def test_a_scaled_move_takes_its_fraction_of_the_legal_range_rounded_down_to_a_step() -> None:
    # 100 + int(0.5 * 89) * 100 = 4500; the whole range is 9000; the minimum is 100.
    assert Move("bet_win", {"horse": 2}, {"amount": 0.5}).resolve(BET) == {"type": "bet_win", "horse": 2, "amount": 4500}
    assert Move("bet_win", {"horse": 2}, {"amount": 1.0}).resolve(BET)["amount"] == 9000  # type: ignore[index]
    assert Move("bet_win", {"horse": 2}, {"amount": 0.0}).resolve(BET)["amount"] == 100  # type: ignore[index]


def test_a_move_outside_the_specs_resolves_to_nothing_and_is_masked_out() -> None:
    codec = ActionCodec([Move("bet_win", {"horse": 4}, {"amount": 0.5}), Move("bet_win", {"horse": True}, {"amount": 0}),
                         Move("done"), Move("borrow")])
    assert codec.mask(BET).tolist() == [0, 0, 1, 0]  # horse 4 is not offered; True is not the horse 1
    assert codec.decode(0, BET) is None
    assert codec.decode(2, BET) == {"type": "done"}


def test_encode_finds_the_index_of_an_action_on_a_level_and_none_between_levels() -> None:
    codec = ActionCodec([Move("bet_win", {"horse": h}, {"amount": f}) for h in (1, 2, 3) for f in (0.0, 0.5, 1.0)])
    assert codec.encode({"type": "bet_win", "horse": 3, "amount": 4500}, BET) == 7
    assert codec.encode({"type": "bet_win", "horse": 3, "amount": 4600}, BET) is None


def test_a_writer_refuses_parts_out_of_order_or_of_the_wrong_size() -> None:
    layout = Layout((("a", 2), ("b", 1)))
    writer = Writer(layout)
    writer.put("b", [1.0])
    writer.put("a", [1.0, 2.0])
    with pytest.raises(ValueError, match="'b' written where 'a' belongs"):
        writer.done()
    writer = Writer(layout)
    writer.put("a", [1.0, 2.0])
    writer.put("b", [1.0, 2.0])
    with pytest.raises(ValueError, match="'b' has 2 values, not 1"):
        writer.done()
    writer = Writer(layout)
    writer.put("a", [1.0, 2.0])
    with pytest.raises(ValueError, match="'b' was not written"):
        writer.done()
    writer.put("b", [-1e9])
    assert writer.done().tolist() == [1.0, 2.0, -100.0]  # clipped to the bound


class _ToyEncoder(Encoder):
    """Sealed high card: the seat, its card, who has bid; bids in thirds of the coins."""

    def __init__(self, seats: int, options: Options, moves: list[Move] | None = None) -> None:
        super().__init__(seats, options)
        self.layout = Layout((("me", seats), ("card", 1), ("has_bid", seats)))
        self.codec = ActionCodec(moves or [Move("bid", scaled={"amount": f}) for f in (0.0, 1 / 3, 2 / 3, 1.0)])

    def observe(self, view: Mapping[str, Any]) -> Vector:
        w = Writer(self.layout)
        w.put("me", one_hot(view["seat"], self.seats))
        w.put("card", [(view["my_card"] or 0) / 10])
        w.put("has_bid", [float(b) for b in view["has_bid"]])
        return w.done()


def test_the_conformance_suite_accepts_a_sound_encoder() -> None:
    check_playout(dataclasses.replace(toy_game.GAME, encoding=_ToyEncoder), 3, seed=1)


def test_the_conformance_suite_catches_a_codec_that_cannot_express_a_legal_action() -> None:
    broken = dataclasses.replace(toy_game.GAME, encoding=lambda n, o: _ToyEncoder(n, o, [Move("fold")]))
    with pytest.raises(ConformanceError, match="action mask is empty"):
        check_playout(broken, 3, seed=1)


def test_the_conformance_suite_catches_an_observation_from_the_match_unlike_the_views() -> None:
    class Peeking(_ToyEncoder):
        """Reads the match for speed, and shows each seat the card of seat 0."""

        def observe_match(self, match: Match, seat: int) -> Vector:
            return self.observe({**match.view(seat), "my_card": match.view(0)["my_card"]})

    class Shifted(_ToyEncoder):
        """Reads the match for speed, and forgets to scale the card."""

        def observe_match(self, match: Match, seat: int) -> Vector:
            return self.observe({**match.view(seat), "my_card": 10 * (match.view(seat)["my_card"] or 0)})

    with pytest.raises(ConformanceError, match="seat 1's observation from the match changes with a secret of seat 0"):
        check_playout(dataclasses.replace(toy_game.GAME, encoding=Peeking), 3, seed=1)
    with pytest.raises(ConformanceError, match="observation from the match differs from its view's"):
        check_playout(dataclasses.replace(toy_game.GAME, encoding=Shifted), 3, seed=1)
    assert Shifted(2, toy_game.GAME.options_class.parse(None)).observes_match
    assert not _ToyEncoder(2, toy_game.GAME.options_class.parse(None)).observes_match


def test_the_conformance_suite_catches_an_observation_out_of_bounds() -> None:
    class Loud(_ToyEncoder):
        def observe(self, view: Mapping[str, Any]) -> Vector:
            return np.full(self.size, np.inf, dtype=np.float32)

    with pytest.raises(ConformanceError, match="not finite"):
        check_playout(dataclasses.replace(toy_game.GAME, encoding=Loud), 2, seed=1)


@pytest.mark.parametrize("game_id", games.ids())
def test_every_game_declares_an_encoding_whose_layout_names_are_distinct(game_id: str) -> None:
    game = games.get(game_id)
    assert game.encoding is not None, f"{game_id}: declare Game.encoding (docs/engine.md, Encodings)"
    seats = min(game.seat_counts_for(None))
    encoder = game.encoder(seats)
    names = [name for name, _ in encoder.layout.parts]
    assert len(set(names)) == len(names)
    view = game.new(seats, seed=3).view(0)
    parts = encoder.layout.split(encoder.observe(view))
    assert parts["me"].tolist() == one_hot(0, seats)  # every game's vector opens with the seat


def test_a_vector_built_as_one_list_is_clipped_and_refused_at_the_wrong_size() -> None:
    layout = Layout((("a", 2), ("b", 1)))
    assert as_vector([1.0, 500.0, -0.5], layout).tolist() == [1.0, 100.0, -0.5]
    with pytest.raises(ValueError, match="has 2 values, not 3"):
        as_vector([1.0, 2.0], layout)


def test_a_writer_sets_hot_positions_and_refuses_one_outside_its_part() -> None:
    writer = Writer(Layout((("cards", 4), ("seat", 2))))
    writer.put_hot("cards", [0, 3], 4)
    writer.put("seat", one_hot(1, 2))
    assert writer.done().tolist() == [1.0, 0.0, 0.0, 1.0, 0.0, 1.0]
    with pytest.raises(ValueError, match="index 4 outside its 4 values"):
        Writer(Layout((("cards", 4),))).put_hot("cards", [4], 4)


def test_a_move_per_choice_value_is_masked_by_value_and_type() -> None:
    """The lookup path (one fixed choice per move): 1 and True are different values."""
    codec = ActionCodec([Move("vote", {"candidate": s}) for s in range(4)])
    assert codec.mask([spec("vote", candidate=choice([0, 2]))]).tolist() == [1, 0, 1, 0]
    assert codec.mask([spec("vote", candidate=choice([True, "1", 9]))]).tolist() == [0, 0, 0, 0]
    assert codec.decode(2, [spec("vote", candidate=choice([0, 2]))]) == {"type": "vote", "candidate": 2}


def test_moves_fixing_several_choices_and_an_amount_are_masked_as_each_would_resolve() -> None:
    """The lookup path with two fixed choices and a scaled amount (gifts: to whom, of what, how many)
    gives the same mask as resolving each move, whichever way a spec offers them."""
    codec = ActionCodec([Move("give", {"to": s, "name": m}, {"count": f}) for s in range(3) for m in range(3)
                         for f in (0.0, 1.0)])
    cases = [
        [spec("give", to=choice([1, 2]), name=choice([0]), count=int_range(1, 4))],
        [spec("give", to=choice([2]), name=choice([0, 2, True]), count=int_range(1, 1))],
        [spec("give", to=choice([0, 1, 2]), name=choice([0, 1, 2]), count=int_range(1, 2))],  # all 9 pairs
        [spec("give", to=choice([1]), name=choice([1]))],  # no amount: no move fits
        [spec("give", to=int_range(0, 1), name=choice([1]), count=int_range(1, 2))],  # a range: checked per move
    ]
    for specs in cases:
        expected = [int(codec.decode(i, specs) is not None) for i in range(len(codec))]
        assert codec.mask(specs).tolist() == expected
    assert sum(codec.mask(cases[0])) == 4  # seats 1 and 2, name 0, both amounts
    assert sum(codec.mask(cases[4])) == 4  # seats 0 and 1, name 1, both amounts


def test_moves_fixing_a_sequence_are_masked_as_each_would_resolve() -> None:
    """Swaps of two cards (the Quiz's): a move is legal when its cards are distinct, offered (by value and
    type: "1" is not 1) and as many as the spec asks for; the mask agrees with resolving each move."""
    codec = ActionCodec([Move("swap", {"cards": [a, b]}) for a in range(4) for b in range(4) if a != b])
    cases = [
        [spec("swap", cards=sequence([0, 1, 3], 2, 2))],
        [spec("swap", cards=sequence(["1", 2, 3], 2, 2))],
        [spec("swap", cards=sequence([0, 1, 2, 3], 3, 3))],  # three cards: no pair fits
        [spec("swap", cards=sequence([0, 1, 2, 3], 1, 2))],
    ]
    for specs in cases:
        expected = [int(codec.decode(i, specs) is not None) for i in range(len(codec))]
        assert codec.mask(specs).tolist() == expected
    assert sum(codec.mask(cases[0])) == 6  # 0-1, 0-3, 1-3 in either order
    assert sum(codec.mask(cases[1])) == 2  # only 2-3: "1" is not the card 1
    assert sum(codec.mask(cases[2])) == 0 and sum(codec.mask(cases[3])) == 12


def test_a_remembered_mask_is_the_mask_of_the_specs_met_now() -> None:
    """Masks are remembered by the specs' values: the same offer again gives the same mask (a new array,
    which its caller may change), while another offer gives its own, even one differing only by a value's
    type (True is not 1) or by the bounds of a range a move fixes a value in; a scaled amount resolves in
    any range, so its bounds do not matter."""
    codec = ActionCodec([Move("vote", {"candidate": s}) for s in range(3)] + [Move("pay", {"amount": 5}),
                        Move("bet", scaled={"amount": 0.5})])
    first = codec.mask([spec("vote", candidate=choice([0, 2])), spec("pay", amount=int_range(0, 10))])
    assert first.tolist() == [1, 0, 1, 1, 0]
    first[:] = 0
    assert codec.mask([spec("vote", candidate=choice([0, 2])), spec("pay", amount=int_range(0, 10))]).tolist() == [1, 0, 1, 1, 0]
    assert codec.mask([spec("vote", candidate=choice([True, 2.0]))]).tolist() == [0, 0, 0, 0, 0]
    assert codec.mask([spec("vote", candidate=choice([1, 2]))]).tolist() == [0, 1, 1, 0, 0]
    assert codec.mask([spec("pay", amount=int_range(6, 10))]).tolist() == [0, 0, 0, 0, 0]
    for low in (1, 50):
        specs = [spec("bet", amount=int_range(low, 100))]
        assert codec.mask(specs).tolist() == [0, 0, 0, 0, 1]
        assert codec.decode(4, specs) == {"type": "bet", "amount": low + (100 - low) // 2}
