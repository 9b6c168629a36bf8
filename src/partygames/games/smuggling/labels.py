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
        "team_totals": Text("Third-country totals", "第3国口座の合計"),
        "winning_team": Text("Winning team", "勝利チーム"),
        "difference": Text("Difference (North minus South)", "差額(北−南)"),
        "remainders": Text("Remainders of the shares", "山分けの端数"),
        "organiser_keeps": Text("Kept by the organiser", "事務局の取り分"),
    },
    values={"north": Text("North", "北の国"), "south": Text("South", "南の国"),
            "passed": Text("passed", "パス(密輸成功)"), "caught": Text("caught", "摘発"),
            "empty_doubted": Text("empty trunk doubted", "空のケースにダウト"),
            "under_doubted": Text("doubt too low", "ダウト額不足"),
            "pass": Text("pass", "パス"), "doubt": Text("doubt", "ダウト"),
            "trunk": Text("trunk", "アタッシュケース"), "compensation": Text("compensation", "補償")},
    view={
        "teams": Text("Teams", "チーム"),
        "my_team": Text("Your team", "あなたのチーム"),
        "small_game": Text("Small game", "小ゲーム"),
        "first_smuggling_team": Text("First smuggling team", "最初に密輸するチーム"),
        "smuggling_team": Text("Smuggling team", "密輸するチーム"),
        "smuggler": Text("Smuggler", "密輸人"),
        "inspector": Text("Inspector", "検査官"),
        "accounts": Text("Accounts", "口座"),
        "trunk": Text("Trunk", "アタッシュケース"),
        "voted": Text("Has voted", "投票済み"),
        "my_vote": Text("Your vote", "あなたの投票"),
        "votes": Text("Votes", "投票"),
        "represented": Text("Times a representative", "代表になった回数"),
        "ledger": Text("Small games so far", "これまでの小ゲーム"),
        "declaration": Text("Declaration", "宣言"),
        "doubt": Text("Doubt (yen)", "ダウト額(円)"),
        "outcome": Text("Outcome", "結果"),
        "transfers": Text("Transfers", "移動"),
        "kind": Text("Kind", "種類"),
        "from": Text("From (seat)", "支払う席"),
        "to": Text("To (seat)", "受け取る席"),
        "totals": Text("Third-country totals", "第3国口座の合計"),
        "north": Text("North", "北の国"),
        "south": Text("South", "南の国"),
    },
    score_unit="yen",  # a seat's score is its net prize
)
