"""Lucky Nine's labels, for the terminal and the web alike."""

from __future__ import annotations

from partygames.engine.labels import Labels
from partygames.engine.text import Text
from partygames.games.lucky_nine.rules import Termination

CHEST_NAMES: dict[str, Text] = {
    "wood": Text("wood", "木"), "stone": Text("stone", "石"), "coal": Text("coal", "石炭"),
    "iron": Text("iron", "鉄"), "lapis": Text("lapis", "ラピスラズリ"), "redstone": Text("redstone", "レッドストーン"),
    "gold": Text("gold", "金"), "emerald": Text("emerald", "エメラルド"), "diamond": Text("diamond", "ダイヤ"),
}
"""The nine chests, named after their blocks; a chest in a view is a key (`chests`) or a word (`lit`)."""

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
        "house": Text("House ledger", "主催者の収支"),
        "house_collected": Text("Collected from the chests at the end", "終了時にチェストから回収"),
        "prizes_left": Text("Prizes nobody claimed", "残った賞品"),
    },
    values={
        "active": Text("playing", "参加中"),
        "dropped": Text("dropped out", "ドロップアウト"),
        "disqualified": Text("disqualified", "失格"),
        **CHEST_NAMES,
    },
    view={
        "round": Text("Round", "ラウンド"),
        "rounds": Text("Rounds", "ラウンド数"),
        "stakes": Text("Stakes by round", "各ラウンドの賭け金"),
        "stake": Text("Stake", "賭け金"),
        "lap": Text("Lap", "周"),
        "laps": Text("Laps per round", "1ラウンドの周回数"),
        "turn_number": Text("Turn", "手番の回数"),
        "turn_seat": Text("Turn of", "手番のプレイヤー"),
        "chests": Text("Chests", "チェスト"),
        **{chest: Text(text.en.capitalize(), text.ja) for chest, text in CHEST_NAMES.items()},
        "lit": Text("Lit lamps", "点灯しているランプ"),
        "prize_values": Text("Prize values (diamonds)", "賞品の価値(ダイヤ)"),
        "claim": Text("What the diamond chest offers", "ダイヤチェストで取れるもの"),
        "mode": Text("Claim by", "取り方"),
        "kinds": Text("Kinds", "種類"),
        "last_draw": Text("Last draw", "直前の出目"),
        "turn_draws": Text("This turn's draws", "この手番の出目"),
        "chain": Text("Chain", "連続"),
        "players": Text("Players", "プレイヤー"),
        "variants": Text("Variants", "変則ルール"),
    },
)
