"""Options of the Pandemic Game: table size, infected at the start, rooms, the clock of contacts and rooms,
what is public, how the cut is made, and the tempo (real time or rounds of sealed intents)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from partygames.engine.length import decisions
from partygames.engine.options import Options, choice_titles
from partygames.engine.text import Text

#: The largest number of seats infected at the start: the exact odds enumerate every initial set
#: (C(24, 6) = 134,596 at most).
MAX_INFECTED = 6


class PandemicOptions(Options):
    infected: int = Field(2, ge=1, le=MAX_INFECTED, title="Seats infected at the start (drawn by lot, secret)",
                          json_schema_extra={"title_ja": "初期の感染者数(抽選・非公開)"})
    qualifiers: int = Field(6, ge=1, le=23, title="Qualifiers: the healthy seats with most vaccines",
                            json_schema_extra={"title_ja": "予選突破の人数(ワクチンの多い正常者)"})
    minutes: int = Field(8, ge=1, le=30, title="Game length (minutes)",
                         json_schema_extra={"title_ja": "ゲーム時間(分)"})
    rooms: int = Field(4, ge=0, le=24, title="Private rooms (0: unlimited)",
                       json_schema_extra={"title_ja": "個室の数(0は無制限)"})
    read_seconds: int = Field(15, ge=1, le=120, title="Seconds in a room before the watch is read",
                              json_schema_extra={"title_ja": "個室で腕時計を確認できるまでの秒数"})
    stay_seconds: int = Field(60, ge=1, le=600, title="Longest stay in a room (seconds)",
                              json_schema_extra={"title_ja": "個室に居られる最長秒数"})
    offer_seconds: int = Field(15, ge=1, le=120, title="Seconds before an unanswered contact offer lapses",
                               json_schema_extra={"title_ja": "接触の申し出が失効するまでの秒数"})
    busy_seconds: int = Field(5, ge=0, le=60, title="Seconds a seat is busy after a contact",
                              json_schema_extra={"title_ja": "接触の後に次の接触ができない秒数"})
    public_contacts: bool = Field(True, title="Contacts (who and when) are public",
                                  json_schema_extra={"title_ja": "接触(誰と誰がいつ)を公開する"})
    public_presses: bool = Field(True, title="Switch presses (who and when) are public",
                                 json_schema_extra={"title_ja": "スイッチを押したこと(誰がいつ)を公開する"})
    cut_ties: Literal["lot", "all"] = Field("lot", title="Ties at the cut",
                                            json_schema_extra=choice_titles("ボーダーの同数", {
                                                "lot": Text("Drawn by lot", "抽選で決める"),
                                                "all": Text("All tied pass", "同数は全員突破")}))
    # The televised variant (issue #9): periods with a break between them, the numbers of healthy and
    # infected announced at each break, and a vaccine threshold instead of the top places.
    periods: int = Field(1, ge=1, le=6, title="Periods (the game time is split among them)",
                         json_schema_extra={"title_ja": "ピリオド数(ゲーム時間を等分)"})
    break_seconds: int = Field(60, ge=1, le=900, title="Break between periods (seconds)",
                               json_schema_extra={"title_ja": "ピリオド間の休憩(秒)"})
    announce_counts: bool = Field(True, title="Announce the numbers of healthy and infected at each break",
                                  json_schema_extra={"title_ja": "休憩ごとに正常者と感染者の人数を発表する"})
    vaccine_threshold: int | None = Field(None, ge=1, le=100,
                                          title="Qualify with at least this many vaccines (instead of the top places)",
                                          json_schema_extra={"title_ja": "このワクチン数以上の正常者が突破(上位人数の代わり)"})
    tempo: Literal["real-time", "rounds"] = Field(
        "real-time", title="Tempo",
        json_schema_extra=choice_titles("進行", {
            "real-time": Text("Real time", "リアルタイム"),
            "rounds": Text("Rounds: one sealed intent per seat", "ラウンド制: 各自が1手ずつ非公開で出す")}))
    step_seconds: int = Field(5, ge=1, le=60, title="Rounds tempo: game seconds per round",
                              json_schema_extra={"title_ja": "ラウンド制: 1ラウンドのゲーム内秒数"})
    intent_seconds: int = Field(60, ge=5, le=600, title="Rounds tempo: time to submit an intent (seconds)",
                                json_schema_extra={"title_ja": "ラウンド制: 1手を出す制限時間(秒)"})

    @property
    def length_ms(self) -> int:
        """The playing time, breaks excluded."""
        return self.minutes * 60_000

    def period_start(self, period: int) -> int:
        """When period `period` (from 0) begins, in game ms (breaks included)."""
        return period * (self.length_ms // self.periods + self.break_seconds * 1000)

    def period_end(self, period: int) -> int:
        """When period `period` ends (the last one takes the odd milliseconds and ends the game)."""
        play = self.length_ms // self.periods
        if period == self.periods - 1:
            play = self.length_ms - (self.periods - 1) * play
        return self.period_start(period) + play

    @property
    def end_ms(self) -> int:
        """When the game ends, in game ms (breaks included)."""
        return self.period_end(self.periods - 1)

    def estimated_seconds(self, seats: int) -> float:
        """Real time: the game clock, breaks included. Rounds: a round per `step_seconds` of game time,
        each an intent (a decision), and the breaks."""
        if self.tempo == "real-time":
            return self.end_ms / 1000
        rounds = self.length_ms / 1000 / self.step_seconds
        return decisions(rounds, self.intent_seconds) + (self.periods - 1) * self.break_seconds
