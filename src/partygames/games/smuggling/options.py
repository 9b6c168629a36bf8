"""Options of the Smuggling Game (密輸ゲーム)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator

from partygames.engine import Options
from partygames.engine.length import decisions
from partygames.engine.text import Text

#: The trunk cap and each player's starting third-country balance (「1億円以下」「第3国口座の一億円」).
HUNDRED_MILLION = 100_000_000


class SmugglingOptions(Options):
    """Every figure of the seed is kept; these are the parts a table may vary."""

    # A room of 4 is two teams of 2: the team size follows the seats a room is created with.
    SEAT_FIELDS: ClassVar[tuple[str, ...]] = ("team_size",)

    team_size: int = Field(9, ge=1, le=9, title="Players per team",
                           json_schema_extra={"title_ja": "1チームの人数"})
    small_games: int = Field(50, ge=1, le=100, title="Small games",
                             json_schema_extra={"title_ja": "小ゲームの数"})
    unit: int = Field(10_000, ge=1, le=HUNDRED_MILLION, title="Money unit (yen)",
                      json_schema_extra={"title_ja": "金額の単位(円)"})
    representatives: Literal["vote", "rotation"] = Field(
        "vote", title="How representatives are chosen",
        json_schema_extra={"title_ja": "代表者の決め方(投票/輪番)"})
    vote_seconds: int = Field(120, ge=5, le=3600, title="Time to vote (seconds)",
                              json_schema_extra={"title_ja": "投票の制限時間(秒)"})
    packing_seconds: int = Field(60, ge=5, le=3600, title="Time to pack the trunk (seconds)",
                                 json_schema_extra={"title_ja": "アタッシュケースに詰める制限時間(秒)"})
    inspection_seconds: int = Field(600, ge=5, le=3600, title="Time in the inspection room (seconds)",
                                    json_schema_extra={"title_ja": "検査ルームの制限時間(秒)"})

    @classmethod
    def follow_seats(cls, seats: int) -> dict[str, Any]:
        return {"team_size": max(1, seats // 2)}

    def outline(self, seats: int) -> Text:
        n, games = self.team_size, self.small_games
        members = "1 player" if n == 1 else f"{n} players"
        return Text(f"Two teams of {members} · {games} small game{'s' if games != 1 else ''}",
                    f"{n}人ずつの2チーム · 小ゲーム{games}回")

    def estimated_seconds(self, seats: int) -> float:
        """Every small game: the vote for the representatives (none by rotation or with teams of one),
        the packing, the inspection."""
        voted = self.representatives == "vote" and self.team_size > 1
        each = (self.vote_seconds if voted else 0) + self.packing_seconds + self.inspection_seconds
        return decisions(self.small_games, each)

    @field_validator("unit")
    @classmethod
    def _unit_divides_the_cap(cls, unit: int) -> int:
        # Starting balances (1億, 3億) and the trunk cap must be whole numbers of units.
        if HUNDRED_MILLION % unit:
            raise ValueError("the unit must divide 100,000,000 yen")
        return unit
