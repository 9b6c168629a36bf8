"""Lucky Nine's labels, for the terminal and the web alike."""

from __future__ import annotations

from partygames.engine.labels import Labels
from partygames.engine.text import Text
from partygames.games.lucky_nine.rules import Termination

LABELS = Labels(
    actions={
        "press": Text("Press the button", "ボタンを押す"),
        "continue": Text("Continue (press again)", "続行(もう一回挑戦)"),
        "pass": Text("Pass to the next player", "パス(次のプレイヤーへ)"),
        "claim": Text("Take from the diamond chest", "ダイヤチェストから取る"),
        "stay": Text("Stay in the game", "ゲームに残る"),
        "drop_out": Text("Drop out until the end of the game", "ドロップアウト(ゲーム終了まで手番なし)"),
    },
    params={"kind": Text("What to take", "取るもの")},
    phases={
        "press": Text("Press the button", "ボタンを押す"),
        "decide": Text("Continue or pass", "続行かパス"),
        "dropout": Text("Stay in or drop out", "残るかドロップアウト"),
        "claim": Text("Choose what to take", "取るものを選ぶ"),
        "over": Text("Game over", "ゲーム終了"),
    },
    terminations={
        Termination.ROUNDS_COMPLETE: Text("All rounds played", "全ラウンド終了"),
        Termination.NO_ACTIVE_PLAYERS: Text("Nobody left playing", "参加者がいなくなった"),
    },
    holdings={
        "diamonds": Text("Diamonds", "ダイヤ"),
        "net": Text("Net", "収支"),
        "status": Text("Status", "状態"),
        "prizes": Text("Prizes", "賞品"),
    },
    details={
        "house": Text("House ledger (paid out −, collected +)", "ハウスの収支(払い出し −、回収 +)"),
        "house_collected": Text("Collected by the house", "ハウスの回収"),
        "prizes_left": Text("Special prizes left in the diamond chest", "ダイヤチェストに残った特別賞品"),
    },
)
