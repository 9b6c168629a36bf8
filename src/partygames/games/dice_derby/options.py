"""Options of Dice Derby: every open point and optional rule of the seed, with its default."""

from __future__ import annotations

from pydantic import Field, field_validator, model_validator
from pydantic.config import JsonDict

from partygames.engine.length import decisions, reveals
from partygames.engine.options import OptionError, Options
from partygames.engine.text import Text

#: Seconds the server is held for reveals (what bot matches are held, tests/test_length.py): the auction's
#: sealed bids and results, then each race (five furlongs of rolling dice, the payouts).
AUCTION_REVEAL_SECONDS = 13.0
RACE_REVEAL_SECONDS = 30.0


def _ja(title: str) -> JsonDict:
    return {"title_ja": title}


class DiceDerbyOptions(Options):
    """Dice Derby options. Money amounts are multiples of 100."""

    starting_money: int = Field(10_000, ge=1_000, le=1_000_000, title="Starting money",
                                json_schema_extra=_ja("所持金(開始時)"))
    races: int = Field(5, ge=4, le=6, title="Races", json_schema_extra=_ja("レース数"))
    win_limit: int = Field(1, ge=1, le=6, title="Win tickets per race (horses)",
                           json_schema_extra=_ja("単勝の点数上限(1レース)"))
    quinella_limit: int = Field(3, ge=1, le=15, title="Quinella tickets per race (pairs)",
                                json_schema_extra=_ja("連勝複式の点数上限(1レース)"))
    prize_first: int = Field(2_000, ge=0, le=1_000_000, title="Prize to the owner of the winner",
                             json_schema_extra=_ja("1着の馬主への賞金"))
    prize_second: int = Field(1_000, ge=0, le=1_000_000, title="Prize to the owner of the second",
                              json_schema_extra=_ja("2着の馬主への賞金"))
    payout_rate: float = Field(1.0, ge=0.5, le=2.0, title="Payout rate (odds = rate / probability)",
                               json_schema_extra=_ja("払戻率(オッズ = 払戻率 ÷ 確率)"))
    simple_odds: bool = Field(
        False, title="Simplified odds: rounded down to easy values (2, 4, 15, 40 for 2.1, 4.9, 16.7, 40.8)",
        json_schema_extra=_ja("簡易版のオッズ: 計算しやすい値に切り捨て(2.1・4.9・16.7・40.8 → 2・4・15・40)"))
    loser_boost: bool = Field(False, title="Raise the win odds of each first-furlong loser by 1.5x for later races",
                              json_schema_extra=_ja("最初の1ハロンで脱落した馬の単勝倍率を以降1.5倍ずつ上げる"))
    fall_rule: bool = Field(False, title="Fall rule (落馬)", json_schema_extra=_ja("落馬ルール"))
    fall_probability: float = Field(0.05, gt=0.0, le=0.5, title="Fall probability per die and roll",
                                    json_schema_extra=_ja("1回の振りでダイスが落馬する確率"))
    loans: bool = Field(False, title="Loans (borrow during betting, repaid at the end)",
                        json_schema_extra=_ja("借金あり(馬券購入中に借りて最後に返済)"))
    loan_amount: int = Field(10_000, ge=100, le=1_000_000, title="Loan: amount lent",
                             json_schema_extra=_ja("借金: 貸付額"))
    loan_repay: int = Field(15_000, ge=100, le=10_000_000, title="Loan: amount repaid at the end",
                            json_schema_extra=_ja("借金: 最後の返済額"))
    loan_limit: int = Field(1, ge=1, le=10, title="Loans per player per match",
                            json_schema_extra=_ja("1人あたりの借金回数の上限"))
    bidding_seconds: int = Field(120, ge=5, le=3_600, title="Time for the owners' auction (s)",
                                 json_schema_extra=_ja("馬主の入札の制限時間(秒)"))
    betting_seconds: int = Field(90, ge=5, le=3_600, title="Time for betting per race (s)",
                                 json_schema_extra=_ja("各レースの馬券購入の制限時間(秒)"))

    def outline(self, seats: int) -> Text:
        return Text(f"An auction of the 6 horses, then {self.races} races · {self.starting_money:,} each to bet",
                    f"6頭の馬主オークションのあと{self.races}レース · 所持金{self.starting_money:,}")

    def estimated_seconds(self, seats: int) -> float:
        """The owners' auction (one sealed round), then each race's betting, and the reveals of both."""
        return (decisions(1, self.bidding_seconds) + decisions(self.races, self.betting_seconds)
                + reveals(1, AUCTION_REVEAL_SECONDS) + reveals(self.races, RACE_REVEAL_SECONDS))

    @field_validator("starting_money", "prize_first", "prize_second", "loan_amount", "loan_repay")
    @classmethod
    def _in_hundreds(cls, value: int) -> int:
        if value % 100:
            raise OptionError("must be a multiple of 100 (money moves in units of 100)",
                              "100 の倍数にしてください(お金は 100 単位で動きます)")
        return value

    @model_validator(mode="after")
    def _loan_costs_something(self) -> DiceDerbyOptions:
        if self.loan_repay < self.loan_amount:
            raise OptionError("loan_repay must be at least loan_amount (a loan is not a gift)",
                              "loan_repay は loan_amount 以上にしてください(借金はもらい物ではありません)")
        return self
