"""Options of Last Man Standing."""

from __future__ import annotations

from pydantic import Field

from partygames.engine.length import CHOICE_SECONDS, quick, reveals
from partygames.engine.options import Options
from partygames.engine.text import Text
from partygames.games.last_man_standing.cards import DEALT_CARDS, ENTRY_FEE, HAND_SIZE, ROUNDS

#: Seconds the server is held for reveals (what bot matches are held, tests/test_length.py): a hire 1 s; a
#: round 4 s (its start, the fight) and half a second per seat's card played face down.
HIRE_REVEAL_SECONDS = 1.0
ROUND_REVEAL_SECONDS = 4.0
CARD_REVEAL_SECONDS = 0.5


class LastManStandingOptions(Options):
    """The seed fixes $50 a player; where draft payments go is the one rule the seed leaves open. The
    seed has no clock: the time limits are the platform's, so that an absent player cannot stall the table."""

    draft_payments_to_pot: bool = Field(
        False,
        title="Draft payments go to the pot (default: set aside)",
        json_schema_extra={"title_ja": "雇用の支払いをテーブル中央に入れる(既定: 横に分けておく)"},
    )
    starting_chips: int = Field(
        50, ge=15, le=10_000,
        title="Starting chips per player (original rules: $50)",
        json_schema_extra={"title_ja": "各プレイヤーの初期チップ(原作: $50)"},
    )
    draft_seconds: int = Field(
        60, ge=5, le=3600,
        title="Time for a hire in the draft (seconds)",
        json_schema_extra={"title_ja": "雇用1回の制限時間(秒)"},
    )
    play_seconds: int = Field(
        60, ge=5, le=3600,
        title="Time to play a card in a round (seconds)",
        json_schema_extra={"title_ja": "各ラウンドでカードを出す制限時間(秒)"},
    )

    def outline(self, seats: int) -> Text:
        fee = ENTRY_FEE.get(seats)
        paid = f"entry fee ${fee} · " if fee is not None else ""
        paid_ja = f"参加費${fee} · " if fee is not None else ""
        return Text(f"${self.starting_chips} each, {paid}a draft, then up to {ROUNDS} rounds",
                    f"各自${self.starting_chips}、{paid_ja}雇用のあと最大{ROUNDS}ラウンド")

    def estimated_seconds(self, seats: int) -> float:
        """The draft, one hire at a time until every hand is full, then the rounds (all play at once), each a
        choice among a few cards in sight at people's pace (`quick`), and the reveals of both."""
        hires = seats * (HAND_SIZE - DEALT_CARDS)
        return (quick(hires, CHOICE_SECONDS, self.draft_seconds) + quick(ROUNDS, CHOICE_SECONDS, self.play_seconds)
                + reveals(hires, HIRE_REVEAL_SECONDS) + reveals(ROUNDS, ROUND_REVEAL_SECONDS + CARD_REVEAL_SECONDS * seats))
