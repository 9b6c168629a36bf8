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
        "slot": Text("Fighter to hire", "雇う闘士"),
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
        "pot": Text("Left in the pot", "中央に残ったチップ"),
        "set_aside": Text("Hiring money set aside", "横に分けた雇用代金"),
        "unawarded": Text("Unawarded (remainder of the split)", "分配されない余り"),
        "rounds_played": Text("Rounds fought", "戦ったラウンド数"),
        "survivors": Text("Surviving fighters", "生き残った闘士"),
        "card": Text("Card", "カード"),
        "owner": Text("Seat", "席"),
    },
    view={
        "round": Text("Round", "ラウンド"),
        "rounds": Text("Rounds", "ラウンド数"),
        "start_player": Text("Starting player", "スタートプレイヤー"),
        "drafter": Text("Hiring now", "雇用の手番"),
        "entry_fee": Text("Entry fee", "参加料"),
        "market": Text("Market", "市場"),
        "price": Text("Price", "雇用代金"),
        "deck_count": Text("Cards in the deck", "山札の枚数"),
        "hand_counts": Text("Cards in hand", "手札の枚数"),
        "has_played": Text("Has played", "カードを出した"),
        "known_cards": Text("Known cards", "判明しているカード"),
        "arena": Text("Fighters in the arena", "場の闘士"),
        "discard": Text("Dead fighters", "倒された闘士"),
        "history": Text("Fights so far", "これまでの戦い"),
        "plays": Text("Cards played", "出したカード"),
        "kills": Text("Kills", "殺し"),
        "killer": Text("Killer", "倒した闘士"),
        "victim": Text("Victim", "倒された闘士"),
        "bounty": Text("Bounty", "賞金"),
        "paid": Text("Paid", "支払われた額"),
        "my_hand": Text("Your hand", "あなたの手札"),
        "my_played": Text("Your card face down", "あなたが伏せたカード"),
    },
)
