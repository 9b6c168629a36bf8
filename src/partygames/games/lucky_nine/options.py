"""Options of Lucky Nine: starting diamonds, round count, special prizes, the seed's variants a-d and the
time limits of the four kinds of decision."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from partygames.engine.length import CHOICE_SECONDS, CLICK_SECONDS, quick, reveals
from partygames.engine.options import OptionError, Options, choice_titles
from partygames.engine.text import Text

# Stakes per round for each round count (seed 三・4).
STAKE_TABLES: dict[int, tuple[int, ...]] = {
    4: (1, 3, 6, 9),
    5: (1, 2, 4, 6, 9),
    6: (1, 2, 4, 6, 8, 9),
}

#: A turn's reveals: about one and a half draws (a press, and a second one after a hit about every other
#: turn), each holding the server about 3.5 s (the dropper 1.5 s, the take or the payment 1 s, and a share
#: of the passes and the refills between rounds): what bot matches are held per draw (tests/test_length.py).
DRAWS_PER_TURN = 1.5
DRAW_REVEAL_SECONDS = 3.5


class Prize(BaseModel):
    """A kind of special prize the house puts in the diamond chest at set-up."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=40, pattern=r"^[^\s].*$", title="Name",
                      json_schema_extra={"title_ja": "名前"})
    name_ja: str = Field("", max_length=40, title="Japanese name", json_schema_extra={"title_ja": "日本語名"})
    count: int = Field(1, ge=1, le=64, title="Count", json_schema_extra={"title_ja": "個数"})
    value: int = Field(0, ge=0, le=100_000, title="Value in diamonds (for ranking)",
                       json_schema_extra={"title_ja": "ダイヤ換算の価値(順位用)"})


class LuckyNineOptions(Options):
    start_diamonds: int = Field(64, ge=1, le=100_000, title="Diamonds per player at the start",
                                json_schema_extra={"title_ja": "各プレイヤーの初期ダイヤ"})
    rounds: Literal[4, 5, 6] = Field(5, title="Rounds", json_schema_extra=choice_titles("ラウンド数", {
        n: Text(f"{n} (stakes {'-'.join(map(str, stakes))})", f"{n}(賭け数 {'・'.join(map(str, stakes))})")
        for n, stakes in STAKE_TABLES.items()}))
    special_prizes: tuple[Prize, ...] = Field((), max_length=8, title="Special prizes in the diamond chest",
                                              json_schema_extra={"title_ja": "ダイヤチェストの特別な賞品"})
    triple_diamond: bool = Field(False, title="Variant a: triple diamond",
                                 json_schema_extra={"title_ja": "変則a・トリプルダイヤ"})
    sweep_bonus: bool = Field(False, title="Variant b: sweep bonus",
                              json_schema_extra={"title_ja": "変則b・総取りボーナス"})
    no_repeat: bool = Field(False, title="Variant c: no repeated dropper result",
                            json_schema_extra={"title_ja": "変則c・連続出目なし"})
    chain_bonus: bool = Field(False, title="Variant d: chain bonus",
                              json_schema_extra={"title_ja": "変則d・チェーンボーナス"})
    # Time limits (the seed has no clock; docs/rules/lucky-nine.md, Time limits): one per kind of decision;
    # a press and staying in are one click each.
    press_seconds: int = Field(15, ge=5, le=3600, title="Time to press the button at the start of a turn (seconds)",
                               json_schema_extra={"title_ja": "手番の最初にボタンを押す制限時間(秒)"})
    first_press_seconds: int = Field(
        60, ge=5, le=3600, title="Time to press at a player's first turn of the match (seconds)",
        json_schema_extra={"title_ja": "各プレイヤーの最初の手番でボタンを押す制限時間(秒)"})
    decide_seconds: int = Field(30, ge=5, le=3600, title="Time to continue or pass after a hit (seconds)",
                                json_schema_extra={"title_ja": "あたりの後に続行かパスを決める制限時間(秒)"})
    claim_seconds: int = Field(30, ge=5, le=3600, title="Time to name a kind in the diamond chest (seconds)",
                               json_schema_extra={"title_ja": "ダイヤチェストの賞品を宣言する制限時間(秒)"})
    dropout_seconds: int = Field(15, ge=5, le=3600, title="Time to stay or drop out after a turn (seconds)",
                                 json_schema_extra={"title_ja": "手番の後に残るかドロップアウトするかを決める制限時間(秒)"})

    @model_validator(mode="after")
    def _prize_names_are_distinct(self) -> LuckyNineOptions:
        names = [p.name for p in self.special_prizes]
        if len(set(names)) != len(names):
            raise OptionError("special prize names must be distinct", "特別賞の名前は重複できません")
        if "diamond" in names:
            raise OptionError('"diamond" is the diamonds themselves, not a special prize',
                              "「diamond」はダイヤそのものの名前で、特別賞には使えません")
        return self

    @property
    def stakes(self) -> tuple[int, ...]:
        return STAKE_TABLES[self.rounds]

    def outline(self, seats: int) -> Text:
        stakes = "-".join(map(str, self.stakes))
        return Text(f"{self.rounds} rounds (stakes {stakes}) · {self.start_diamonds} diamonds each",
                    f"{self.rounds}ラウンド(賭け数 {stakes})· 各自ダイヤ{self.start_diamonds}個")

    def estimated_seconds(self, seats: int) -> float:
        """Every turn of every round: a round is two laps of the seats with 6 or fewer, one with 7 or
        more; a turn is counted as a press, one decision after a hit, and the stay-or-drop-out choice, at
        people's pace (`quick`), and its draws' reveals."""
        laps = 2 if seats <= 6 else 1
        turns = self.rounds * laps * seats
        # Quick decisions at people's pace (engine/length.py): a press and staying in are clicks, continue or
        # pass a choice; each player's first press, with the machine still to read, a choice too.
        return (quick(turns, CLICK_SECONDS, self.press_seconds) + quick(turns, CHOICE_SECONDS, self.decide_seconds)
                + quick(turns, CLICK_SECONDS, self.dropout_seconds)
                + quick(seats, CHOICE_SECONDS - CLICK_SECONDS, self.first_press_seconds)
                + reveals(turns * DRAWS_PER_TURN, DRAW_REVEAL_SECONDS))
