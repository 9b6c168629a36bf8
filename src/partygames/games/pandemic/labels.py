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
    values={"healthy": Text("healthy", "正常"), "infected": Text("infected", "感染"),
            "contact": Text("contact", "接触"), "press": Text("switch press", "スイッチ押下")},
    view={
        "time": Text("Game time (ms)", "ゲーム内時刻(ミリ秒)"),
        "t": Text("At (ms)", "時刻(ミリ秒)"),
        "ends_at": Text("Ends at (ms)", "終了時刻(ミリ秒)"),
        "period": Text("Period", "ピリオド"),
        "period_ends_at": Text("Period ends at (ms)", "ピリオド終了時刻(ミリ秒)"),
        "announcements": Text("Announcements at the breaks", "休憩時の発表"),
        "after": Text("After log entry", "ログの何件目の後"),
        "inside": Text("In the private rooms", "個室の中"),
        "room": Text("Room", "個室"),
        "since": Text("Since (ms)", "入室時刻(ミリ秒)"),
        "queue": Text("Waiting for a room", "個室の順番待ち"),
        "busy_until": Text("Busy until (ms)", "接触後の待機終了(ミリ秒)"),
        "log": Text("Public log", "公開ログ"),
        "kind": Text("What happened", "出来事"),
        "a": Text("Seat A", "席 A"),
        "b": Text("Seat B", "席 B"),
        "odds": Text("Chances of infection (public)", "感染の可能性(公開情報から)"),
        "my_odds": Text("Chances of infection (what you know)", "感染の可能性(あなたの情報から)"),
        "worlds": Text("Possible worlds", "ありうる組み合わせ"),
        "my_offer": Text("Your contact offer", "あなたの接触の申し出"),
        "offers_to_me": Text("Contact offers to you", "あなたへの接触の申し出"),
        "id": Text("Offer", "申し出"),
        "from": Text("From", "申し出た席"),
        "to": Text("To", "申し出を受けた席"),
        "at": Text("At (ms)", "時刻(ミリ秒)"),
        "readings": Text("Your watch readings", "あなたの時計の表示"),
        "submitted": Text("Intent submitted", "行動を提出済み"),
        "my_intent": Text("Your intent", "あなたの行動"),
        "step": Text("Round", "ラウンド"),
        "infected": Text("Infected", "感染"),
        "healthy": Text("Healthy", "正常"),
    },
)
