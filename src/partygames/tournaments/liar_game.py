"""The Liar Game night: seed 000's three rounds in one room, one tournament (docs/rules/liar-game-night.md).

Round 3, the Smuggling Game, for the whole room in two teams; round 4's qualifier, the Pandemic Game, for the
same people, half of whom pass (the seed's 6 of 12); round 4's final, Musical Chairs, with the qualifiers as its
players and everyone else as its gallery (ガヤ), the handover Musical Chairs declares (`Game.follows`). Each
person's yen carry on across the rounds (each game's `Game.yen`).
"""

from __future__ import annotations

from typing import Any

from partygames.engine.match import Result
from partygames.engine.text import Text
from partygames.engine.tournament import Stage, Tournament

#: A room's seats: two teams of 2 to 9 for the Smuggling Game (the seed's 「1チーム9人」 at most), and at least the
#: Pandemic Game's four.
SEAT_COUNTS = tuple(range(4, 19, 2))


def qualifier(seats: int) -> dict[str, Any]:
    """The qualifier for the whole room: half of it passes, as 6 of the seed's 12 (「上位6名が予選突破」); one
    infected at the start per six people, as 2 of the seed's 12 (「初期状態では2人の感染者がいます」), at least one."""
    return {"qualifiers": seats // 2, "infected": max(1, seats // 6)}


def final(seats: int) -> dict[str, Any]:
    """The final's medals: one fewer than the participants, as the seed's 23 of 24 (「メダルが23枚1組」)."""
    return {"medals": seats - 1}


def too_few_qualified(game: str, result: Result) -> bool:
    """A qualifier that let fewer than two pass cannot make a final: it is played again."""
    return game == "pandemic" and len(result.winners) < 2


NIGHT = Tournament(
    id="liar-game",
    title=Text("The Liar Game night", "ライアーゲームの夜"),
    note=Text("Three rounds in one room with a yen ledger: the Smuggling Game, the Pandemic Game as the "
              "qualifier, then Musical Chairs with the gallery",
              "1つのルームで3回戦、円の収支を通算: 密輸ゲーム、予選の感染ゲーム、ガヤのいるイス取りゲーム"),
    stages=(
        Stage("smuggling", Text("Round 3: the Smuggling Game", "第三回戦: 密輸ゲーム")),
        Stage("pandemic", Text("Round 4, qualifier: the Pandemic Game", "第四回戦予選: 感染ゲーム"), qualifier),
        Stage("musical-chairs", Text("Round 4, final: Musical Chairs", "第四回戦本戦: イス取りゲーム"), final),
    ),
    seat_counts=SEAT_COUNTS,
    again=too_few_qualified,
)
