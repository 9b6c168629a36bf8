"""The Smuggling Game's labels, for the terminal and the web alike."""

from __future__ import annotations

from partygames.engine.labels import Labels
from partygames.engine.text import Text
from partygames.games.smuggling.rules import Termination

LABELS = Labels(
    actions={
        "vote": Text("Vote for a representative", "代表者に投票"),
        "pack": Text("Pack the trunk", "アタッシュケースに詰める"),
        "pass": Text("Pass", "パス"),
        "doubt": Text("Doubt", "ダウト"),
    },
    params={
        "candidate": Text("Teammate (seat)", "チームメンバー(席)"),
        "amount": Text("Amount (yen)", "金額(円)"),
    },
    phases={
        "vote": Text("Team vote", "代表者投票"),
        "pack": Text("Packing the trunk", "アタッシュケースの準備"),
        "inspect": Text("Inspection room", "検査ルーム"),
        "over": Text("Game over", "ゲーム終了"),
    },
    terminations={Termination.LAST_SMALL_GAME: Text("All small games played", "全小ゲーム終了")},
    holdings={
        "team": Text("Team", "チーム"),
        "third": Text("Third country", "第3国口座"),
        "opp": Text("Opponent country", "相手国口座"),
        "share": Text("Share", "山分け"),
        "prize": Text("Gross prize", "賞金総額"),
        "repay": Text("Loan repaid", "借金返済"),
        "net": Text("Net", "純額"),
        "debt": Text("Debt", "負債"),
    },
    details={
        "team_totals": Text("Third-country totals (decide the winner)", "第3国口座の合計(勝敗を決める)"),
        "winning_team": Text("Winning team", "勝ったチーム"),
        "difference": Text("Difference", "差額"),
        "remainders": Text("Left over when shared out", "山分けの端数"),
        "organiser_keeps": Text("Kept by the organiser", "主催者の取り分"),
        "north": Text("North", "北の国"),
        "south": Text("South", "南の国"),
    },
)
