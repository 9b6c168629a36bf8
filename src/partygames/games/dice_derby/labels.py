"""Dice Derby's labels, for the terminal and the web alike."""

from __future__ import annotations

from partygames.engine.labels import Labels
from partygames.engine.text import Text
from partygames.games.dice_derby.rules import Termination

LABELS = Labels(
    actions={
        "bid": Text("Bid for a horse (sealed)", "馬主の入札(封印)"),
        "pass": Text("Pass (no bid)", "入札しない"),
        "bet_win": Text("Buy a win ticket", "単勝を買う"),
        "bet_quinella": Text("Buy a quinella ticket", "連複を買う"),
        "cancel": Text("Cancel a ticket", "馬券を取り消す"),
        "borrow": Text("Borrow (loan)", "借金する"),
        "done": Text("Done betting", "投票完了"),
    },
    params={
        "horse": Text("Gate (1 = d4 … 6 = d20)", "枠番(1 = 4面体 … 6 = 20面体)"),
        "amount": Text("Amount", "金額"),
        "pair": Text("Pair of gates (e.g. 5-6)", "枠番の組(例: 5-6)"),
        "ticket": Text("Ticket", "馬券"),
    },
    phases={
        "auction": Text("Owners' auction", "馬主の入札"),
        "betting": Text("Betting", "馬券購入"),
        "over": Text("Game over", "ゲーム終了"),
    },
    terminations={Termination.ALL_RACES_RUN: Text("All races run", "全レース終了")},
    holdings={
        "money": Text("Money", "所持金"),
        "prize": Text("Prizes", "賞金"),
        "loans": Text("Loans", "借金"),
        "horse": Text("Horse owned", "所有馬"),
        "price": Text("Price paid", "落札額"),
    },
    details={
        "owners_award": Text("Owners' award", "馬主賞"),
        "prize_total": Text("Most prize money", "賞金の最多"),
        "prize_minus_price": Text("Most prize money minus the price paid", "賞金から落札額を引いた額の最多"),
        "amount": Text("Amount", "金額"),
        "seats": Text("Owners", "馬主"),
        "house": Text("House takings", "胴元の収支"),
        "races": Text("Races", "レース"),
        "race": Text("Race", "レース"),
        "first": Text("First", "1着"),
        "second": Text("Second", "2着"),
    },
)
