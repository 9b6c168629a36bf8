"""The Smuggling Game's chat rooms that follow the match: the inspection room of each small game.

「密輸人と検査官が検査ルームにいる時間は10分間で、この間に検査官は密輸人に話しかけるなどして
アタッシュケース内の金額を予想します。」 The talk is a private channel `inspection:<n>` between small game
n's smuggler and inspector. It is open while the inspector decides (phase `inspect`, whose deadline is
named `inspection:<n>` too, so a client can show the countdown beside it), and afterwards stays
readable by those two only.
"""

from __future__ import annotations

from typing import Any

from partygames.engine.match import Match
from partygames.games.smuggling.rules import SmugglingMatch


def inspection_channel(small_game: int) -> str:
    """The channel name of small game `small_game` (1-based), the same as its inspection deadline's phase."""
    return f"inspection:{small_game}"


def inspection_channels(match: Match) -> dict[str, dict[str, Any]]:
    """Every inspection room so far: past ones closed, the current one open during the inspection."""
    assert isinstance(match, SmugglingMatch)
    rooms: dict[str, dict[str, Any]] = {
        inspection_channel(entry["small_game"]): {"members": [entry["smuggler"], entry["inspector"]], "open": False}
        for entry in match.ledger}
    if match.phase == "inspect":
        assert match.smuggler is not None and match.inspector is not None
        rooms[inspection_channel(match.small_game + 1)] = {"members": [match.smuggler, match.inspector], "open": True}
    return rooms
