"""Options of the Smuggling Game (密輸ゲーム)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator

from partygames.engine import Options
from partygames.engine.length import decisions, reveals
from partygames.engine.options import choice_titles
from partygames.engine.text import Text

#: The trunk cap and each player's starting third-country balance (「1億円以下」「第3国口座の一億円」).
HUNDRED_MILLION = 100_000_000

#: The original's table (「1チーム9人」「小ゲームを50ゲーム」「検査ルームにいる時間は10分間」) and its other
#: limits as they were before the evening default: the lobby's "Original rules" preset (`GAME.presets`).
ORIGINAL = {"small_games": 50, "vote_seconds": 120, "packing_seconds": 60, "inspection_seconds": 600}
ORIGINAL_TEAM = 9

#: Seconds a small game holds the server for its reveals (the trunk opening, packing, the small game's
#: announcements), and each seat's vote besides when a team votes: what bot matches are held
#: (tests/test_length.py).
REVEAL_SECONDS = 6.0
VOTE_REVEAL_SECONDS = 1.0
VOTE_CAST_REVEAL_SECONDS = 0.4


class SmugglingOptions(Options):
    """The parts a table may vary. The defaults are an evening's match (docs/rules/smuggling.md, The default
    table): three a side, 20 small games, a 2-minute inspection; the original's figures are the preset
    "Original rules" (`ORIGINAL`)."""

    # A room of 4 is two teams of 2: the team size follows the seats a room is created with.
    SEAT_FIELDS: ClassVar[tuple[str, ...]] = ("team_size",)

    team_size: int = Field(3, ge=1, le=9, title="Players per team",
                           json_schema_extra={"title_ja": "1チームの人数"})
    small_games: int = Field(20, ge=1, le=100, title="Small games",
                             json_schema_extra={"title_ja": "小ゲームの数"})
    unit: int = Field(10_000, ge=1, le=HUNDRED_MILLION, title="Money unit (yen)",
                      json_schema_extra={"title_ja": "金額の単位(円)"})
    representatives: Literal["vote", "rotation"] = Field(
        "vote", title="How representatives are chosen",
        json_schema_extra=choice_titles("代表者の決め方", {
            "vote": Text("Team vote", "チーム内の投票"),
            "rotation": Text("In turn (each member twice in a row)", "輪番(各メンバーが2回続けて)")}))
    vote_seconds: int = Field(30, ge=5, le=3600, title="Time to vote (seconds)",
                              json_schema_extra={"title_ja": "投票の制限時間(秒)"})
    packing_seconds: int = Field(30, ge=5, le=3600, title="Time to pack the trunk (seconds)",
                                 json_schema_extra={"title_ja": "アタッシュケースに詰める制限時間(秒)"})
    inspection_seconds: int = Field(120, ge=5, le=3600, title="Time in the inspection room (seconds)",
                                    json_schema_extra={"title_ja": "検査ルームの制限時間(秒)"})

    @classmethod
    def follow_seats(cls, seats: int, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return {"team_size": max(1, seats // 2)}

    def outline(self, seats: int) -> Text:
        n, games = self.team_size, self.small_games
        members = "1 player" if n == 1 else f"{n} players"
        return Text(f"Two teams of {members} · {games} small game{'s' if games != 1 else ''}",
                    f"{n}人ずつの2チーム · 小ゲーム{games}回")

    def estimated_seconds(self, seats: int) -> float:
        """Every small game: the vote for the representatives (none by rotation or with teams of one),
        the packing, the inspection, and its reveals (with a vote, its opening and each seat's ballot)."""
        voted = self.representatives == "vote" and self.team_size > 1
        each = (self.vote_seconds if voted else 0) + self.packing_seconds + self.inspection_seconds
        shown = REVEAL_SECONDS + (VOTE_REVEAL_SECONDS + VOTE_CAST_REVEAL_SECONDS * seats if voted else 0)
        return decisions(self.small_games, each) + reveals(self.small_games, shown)

    @field_validator("unit")
    @classmethod
    def _unit_divides_the_cap(cls, unit: int) -> int:
        # Starting balances (1億, 3億) and the trunk cap must be whole numbers of units.
        if HUNDRED_MILLION % unit:
            raise ValueError("the unit must divide 100,000,000 yen")
        return unit
