"""Options of Musical Chairs (イス取りゲーム). Figures left as None follow the preset (see `resolved`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from partygames.engine import Options, Text
from partygames.engine.length import decisions
from partygames.engine.options import OptionError, choice_titles

#: The seed's room: 24 participants (「ガヤも含めた全24名」) and 25 chairs (「25個のイス」).
SEED_PARTICIPANTS = 24
SEED_CHAIRS = 25
#: The seed's race: 「スタートから10分が経過した時点でイスに座れなかった者は敗退」.
SEED_RACE_SECONDS = 600
#: The seed's gathering before the parent vote: 「着座確定の5分後に行われ」.
SEED_GATHER_SECONDS = 300
#: 1億 yen per medal (「価値は1枚1億円」).
MEDAL_YEN = 100_000_000


#: A room's players when its seat count picks them (`follow_seats`): the seed's six, or everyone in a smaller room.
ROOM_PLAYERS = 6


class MusicalChairsOptions(Options):
    """Every figure the seed gives is reachable (preset "seed", shown as "The original's figures"; the lobby's
    "Original rules" are those figures and `vote_at_totem`); the digital default is a quicker table."""

    # A room's gallery is the seats left after its players (issue 29: a room of 4 had to edit both Players and
    # Gallery first); a room that names no players has up to six, the others the gallery.
    SEAT_FIELDS: ClassVar[tuple[str, ...]] = ("gallery",)

    @classmethod
    def follow_seats(cls, seats: int, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        players = (given or {}).get("players")
        if players is None:
            players = max(2, min(ROOM_PLAYERS, seats))
            return {"players": players, "gallery": seats - players}
        # (a count that is not a number is refused by the parse that follows)
        return {"gallery": seats - players} if isinstance(players, int) else {}

    preset: Literal["digital", "seed"] = Field(
        "digital", title="Figures",
        json_schema_extra=choice_titles("設定", {
            "digital": Text("Quicker: chairs for the players + 1, 1-minute races, the vote at once",
                            "短め: イスはプレイヤー数+1・イス取り1分・すぐに投票"),
            # The figures only: the original rules (the lobby's preset) also vote at the totem (`vote_at_totem`).
            "seed": Text("The original's figures: 25 chairs, 10-minute races, the vote 5 minutes after, "
                         "24 participants",
                         "原作の数値: イス25個・イス取り10分・投票は5分後・参加者24名")}))
    tempo: Literal["real-time", "rounds"] = Field(
        "real-time", title="Tempo",
        json_schema_extra=choice_titles("進行", {
            "real-time": Text("Real time: everyone runs at once", "リアルタイム: 全員が同時に走る"),
            "rounds": Text("Rounds: sealed chair plans, resolved by the same movement rules",
                           "ラウンド制: イスの希望順を封印して提出し、同じ移動ルールで解決")}))
    players: int = Field(6, ge=2, le=24, title="Players", json_schema_extra={"title_ja": "プレイヤー数"})
    gallery: int = Field(18, ge=0, le=30, title="Gallery (ガヤ)", json_schema_extra={"title_ja": "ガヤの人数"})
    player_seats: list[int] | None = Field(
        None, title="Seats that are players (default: the first seats)",
        json_schema_extra={"title_ja": "プレイヤーの席(既定: 先頭から)"})
    chairs: int | None = Field(None, ge=2, le=25, title="Chairs (default: players + 1; original rules: 25)",
                               json_schema_extra={"title_ja": "イスの数(既定: プレイヤー数+1、原作ルール: 25)"})
    island: Literal["drawn", "test"] = Field(
        "drawn", title="Island",
        json_schema_extra=choice_titles("島", {
            "drawn": Text("An island with the chairs scattered by lot", "イスを抽選でばら撒いた島"),
            "test": Text("A small fixed test island: at most 8 chairs, whole travel times",
                         "小さな固定のテスト用の島: イス8脚まで・移動時間が整数")}))
    speed: int = Field(5, ge=1, le=1000, title="Running speed (metres per second)",
                       json_schema_extra={"title_ja": "走る速さ(メートル/秒)"})
    first_break_seconds: int = Field(120, ge=5, le=3600, title="First break (seconds)",
                                     json_schema_extra={"title_ja": "最初の休憩(秒)"})
    break_seconds: int = Field(45, ge=5, le=3600, title="Break between periods (seconds)",
                               json_schema_extra={"title_ja": "ピリオド間の休憩(秒)"})
    race_seconds: int | None = Field(None, ge=5, le=3600,
                                     title="Race time (seconds; default 60, original rules 600)",
                                     json_schema_extra={"title_ja": "イス取りの制限時間(秒、既定60・原作ルール600)"})
    gather_seconds: int | None = Field(
        None, ge=0, le=3600, title="Gathering before the vote (seconds; default 0, original rules 300)",
        json_schema_extra={"title_ja": "投票までの集合時間(秒、既定0・原作ルール300)"})
    vote_seconds: int = Field(45, ge=5, le=3600, title="Time to vote (seconds)",
                              json_schema_extra={"title_ja": "投票の制限時間(秒)"})
    remove_seconds: int = Field(30, ge=5, le=3600, title="Time for the parent to name a chair (seconds)",
                                json_schema_extra={"title_ja": "親がイスを指定する制限時間(秒)"})
    medals: int | None = Field(None, ge=1, le=100, title="Medals per player (default: participants - 1)",
                               json_schema_extra={"title_ja": "1人あたりのメダル(既定: 参加者数-1)"})
    gallery_on_island: bool = Field(True, title="The gallery walks the island and may hold chairs",
                                    json_schema_extra={"title_ja": "ガヤも島を歩きイスを押さえられる"})
    vote_at_totem: bool = Field(False, title="Only ballots cast near the totem count",
                                json_schema_extra={"title_ja": "トーテムポールの近くでの投票のみ有効"})
    totem_reach: int = Field(15, ge=1, le=100, title="Reach of the voting place around the totem (metres)",
                             json_schema_extra={"title_ja": "投票会場の範囲(トーテムポールから・メートル)"})

    @model_validator(mode="after")
    def _consistent(self) -> MusicalChairsOptions:
        participants = self.players + self.gallery
        if self.preset == "seed" and participants != SEED_PARTICIPANTS:
            raise OptionError(f"the original rules have {SEED_PARTICIPANTS} participants (players + gallery)",
                              f"原作の設定の参加者は {SEED_PARTICIPANTS} 人です(プレイヤー + ガヤ)")
        if self.chair_count < 2 or self.chair_count > SEED_CHAIRS:
            raise OptionError(f"chairs must be 2 to {SEED_CHAIRS} (players + 1 by default)",
                              f"イスは 2 〜 {SEED_CHAIRS} 脚です(既定はプレイヤー + 1)")
        if self.island == "test" and self.chair_count > TEST_MAP_CHAIRS:
            raise OptionError(f"the test island has {TEST_MAP_CHAIRS} chairs", f"テスト用の島のイスは {TEST_MAP_CHAIRS} 脚です")
        if self.player_seats is not None:
            seats = self.player_seats
            if len(seats) != self.players or len(set(seats)) != len(seats):
                raise OptionError("player_seats must list as many distinct seats as there are players",
                                  "player_seats にはプレイヤーの人数だけ、重複しない席を並べてください")
            if any(not 0 <= s < participants for s in seats):
                raise OptionError(f"player_seats must be seats 0 to {participants - 1}",
                                  f"player_seats の席は 0 〜 {participants - 1} です")
        return self

    def estimated_seconds(self, seats: int) -> float:
        """A period per chair removed until one player is left (at most chairs - 1): its break (fixed in
        real time, a decision in rounds), its race, the gathering before the vote (fixed; real time
        only), the parent vote and the removal."""
        periods = self.chair_count - 1
        breaks: float = self.first_break_seconds + (periods - 1) * self.break_seconds
        if self.tempo == "rounds":
            breaks = decisions(1, breaks)
        each = self.race_ms / 1000 + self.vote_seconds + self.remove_seconds
        return breaks + periods * self.gather_ms / 1000 + decisions(periods, each)

    @property
    def participants(self) -> int:
        return self.players + self.gallery

    @property
    def chair_count(self) -> int:
        if self.chairs is not None:
            return self.chairs
        return SEED_CHAIRS if self.preset == "seed" else min(self.players + 1, SEED_CHAIRS)

    @property
    def race_ms(self) -> int:
        seconds = self.race_seconds
        if seconds is None:
            seconds = SEED_RACE_SECONDS if self.preset == "seed" else 60
        return seconds * 1000

    @property
    def gather_ms(self) -> int:
        """The gathering between a race's end and the parent vote (「着座確定の5分後に行われ」): 0 skips it,
        and so does the rounds tempo (nobody moves outside the race there, nor is presence checked)."""
        if self.tempo == "rounds":
            return 0
        seconds = self.gather_seconds
        if seconds is None:
            seconds = SEED_GATHER_SECONDS if self.preset == "seed" else 0
        return seconds * 1000

    @property
    def medal_count(self) -> int:
        return self.medals if self.medals is not None else max(1, self.participants - 1)

    @property
    def players_list(self) -> list[int]:
        """The player seats, in seat order."""
        return sorted(self.player_seats) if self.player_seats is not None else list(range(self.players))


#: How many chairs the fixed test island has (island.TEST_CHAIRS).
TEST_MAP_CHAIRS = 8
