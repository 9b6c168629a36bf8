"""Last Man Standing's labels, for the terminal and the web alike."""

from __future__ import annotations

from partygames.engine.labels import Labels
from partygames.engine.text import Text
from partygames.games.last_man_standing.rules import Termination

LABELS = Labels(
    actions={
        "hire": Text("Hire a fighter from the market", "市場から闘士を雇う"),
        "play": Text("Play a fighter face down", "闘士を裏向きで出す"),
    },
    params={
        "slot": Text("Market slot (0 = $0, 1 = $2, 2 = $4, 3 = $6)", "市場の位置(0 = $0、1 = $2、2 = $4、3 = $6)"),
        "card": Text("Card", "カード"),
    },
    phases={
        "draft": Text("Hiring", "闘士の雇用"),
        "play": Text("Fights", "戦い"),
        "over": Text("Game over", "ゲーム終了"),
    },
    terminations={
        Termination.POT_EMPTY: Text("The pot ran dry", "テーブル中央のチップがなくなった"),
        Termination.FIVE_ROUNDS: Text("Five rounds fought; the survivors split the pot",
                                      "5ラウンド終了・生き残りで山分け"),
    },
    holdings={"chips": Text("Chips", "チップ")},
    details={
        "pot": Text("Left in the pot", "テーブル中央に残ったチップ"),
        "set_aside": Text("Hiring payments set aside", "横に分けた雇用の支払い"),
        "unawarded": Text("Left over from the split", "山分けの端数"),
        "rounds_played": Text("Rounds fought", "戦ったラウンド数"),
        "survivors": Text("Survivors", "生き残り"),
        "card": Text("Fighter", "闘士"),
        "owner": Text("Owner", "持ち主"),
    },
)
