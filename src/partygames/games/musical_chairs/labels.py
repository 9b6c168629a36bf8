"""Musical Chairs' labels, for the terminal and the web alike."""

from __future__ import annotations

from partygames.engine.labels import Labels
from partygames.engine.text import Text
from partygames.games.musical_chairs.rules import Termination

LABELS = Labels(
    actions={
        "run_to_chair": Text("Run to a chair", "イスへ走る"),
        "run_to_totem": Text("Run to the totem pole", "トーテムポールへ走る"),
        "walk_to": Text("Walk to a point", "地点へ歩く"),
        "stop": Text("Stop here", "ここで止まる"),
        "plan": Text("Chair plan (totem, then these chairs in order)", "イスの希望順(トーテムの後この順に)"),
        "hold": Text("Hold a chair for a player", "プレイヤーのためにイスを押さえる"),
        "vote": Text("Vote for the parent", "親決め投票"),
        "remove_chair": Text("Remove a chair", "イスを除外する"),
        "give": Text("Give medals", "メダルを渡す"),
        "show_medals": Text("Show my medals", "メダルを見せる"),
    },
    params={
        "chair": Text("Chair number", "イスの番号"),
        "x": Text("East (metres)", "東(メートル)"),
        "y": Text("South (metres)", "南(メートル)"),
        "chairs": Text("Chair numbers, first choice first", "イスの番号(第1希望から)"),
        "player": Text("Player (seat)", "プレイヤー(席)"),
        "candidate": Text("Player (seat)", "プレイヤー(席)"),
        "to": Text("To (seat)", "相手(席)"),
        "name": Text("Medals bearing the name of (seat)", "メダルの名前(席)"),
        "count": Text("Medals", "枚数"),
    },
    phases={
        "break": Text("Break", "休憩"),
        "race": Text("Race", "イス取り"),
        "vote": Text("Parent vote", "親決め投票"),
        "runoff": Text("Run-off vote", "決選投票"),
        "remove": Text("The parent removes a chair", "親がイスを除外"),
        "over": Text("Game over", "ゲーム終了"),
    },
    terminations={
        Termination.LAST_PLAYER: Text("One player left", "最後の1人が決定"),
        Termination.NOBODY_SAT: Text("Nobody sat, twice: no winner, every medal void",
                                     "2回続けて誰も座れず: 勝者なし・メダルはすべて無効"),
    },
    holdings={
        "winner_medals": Text("Winner's medals held", "勝者のメダル"),
        "payout": Text("Payout (yen)", "換金額(円)"),
        "out_in_period": Text("Out in period", "敗退したピリオド"),
    },
    details={
        "winner": Text("Winner (the last player left)", "勝者(最後の1人)"),
        "periods": Text("Periods played", "ピリオド数"),
        "payouts": Text("Payouts per seat (yen)", "各席の換金額(円)"),
        "players": Text("Players at the start", "開始時のプレイヤー"),
    },
)
