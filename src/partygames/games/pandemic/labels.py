"""The Pandemic Game's labels, for the terminal and the web alike."""

from __future__ import annotations

from partygames.engine.labels import Labels
from partygames.engine.text import Text
from partygames.games.pandemic.rules import Termination

LABELS = Labels(
    actions={
        "offer": Text("Offer contact", "接触を申し出る"),
        "accept": Text("Accept contact", "接触を受ける"),
        "decline": Text("Decline contact", "接触を断る"),
        "withdraw": Text("Withdraw your offer", "申し出を取り下げる"),
        "visit": Text("Go to a private room", "個室に行く"),
        "leave": Text("Leave the room or its queue", "個室(または順番待ち)を出る"),
        "press": Text("Press the switch", "スイッチを押す"),
        "intend": Text("Choose this round's move", "このラウンドの行動を選ぶ"),
    },
    params={
        "target": Text("Seat", "席"),
        "offer": Text("Offer (seat@ms when made)", "申し出(席@申し出の時刻ms)"),
        "intent": Text("Move (wait, press, visit, leave, withdraw, offer:seat, accept:/decline:seat@ms)",
                       "行動(wait=待つ, press=スイッチ, visit=個室, leave=退出, withdraw=取り下げ, "
                       "offer:席=接触の申し出, accept:/decline:席@ms=受ける/断る)"),
    },
    phases={
        "play": Text("In the hall", "ゲーム中"),
        "break": Text("Break between periods", "ピリオド間の休憩"),
        "over": Text("Time up", "ゲーム終了"),
    },
    terminations={Termination.TIME_UP: Text("Time up", "時間切れ")},
    holdings={
        "status": Text("Status", "ステータス"),
        "vaccines": Text("Vaccines", "ワクチン"),
        "passed": Text("Qualified", "予選突破"),
        "infected_at_start": Text("Infected at the start", "初期感染者"),
    },
    details={
        "passed": Text("Qualified seats", "予選突破者"),
        "cut_lot": Text("Places at the cut drawn by lot", "ボーダーの同数を抽選で決めた"),
        "initial_infected": Text("Infected at the start", "初期感染者"),
        "healthy": Text("Healthy at the end", "終了時の正常者数"),
    },
    values={"healthy": Text("healthy", "正常"), "infected": Text("infected", "感染")},
)
