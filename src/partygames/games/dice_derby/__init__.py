"""Dice Derby (ダイスダービー, seed 003): six dice race over five furlongs; bet on them, or own one."""

from __future__ import annotations

from pathlib import Path

from partygames.engine.game import Game
from partygames.engine.reveals import Reveals
from partygames.engine.samples import Conformance, Samples, Setup
from partygames.engine.text import Text
from partygames.games.dice_derby import commands, terminal
from partygames.games.dice_derby.bots import HeuristicBot, RandomBot, SearchBot
from partygames.games.dice_derby.determinise import DiceDerbyDeterminiser
from partygames.games.dice_derby.encoding import DiceDerbyEncoder
from partygames.games.dice_derby.labels import LABELS
from partygames.games.dice_derby.rules import DiceDerbyMatch

# Shown as Markdown by `partygames rules`: blank lines separate paragraphs, bullets go on indented.
SUMMARY_EN = """\
Six horses are six dice: d4, d6, d8, d10, d12 and d20 (gates 1-6). 6-30 players, 10,000 each.

- **Owners:** every player seals one bid (one die and an amount, or a pass). Per die from d4 up, the
  highest bid buys it (ties by lot) and is paid to the house; a die nobody bid on goes free to a random
  non-owner. Each player owns at most one die.
- **Betting:** 5 races (option 4-6). Before each race all players buy tickets in secret, then declare
  done: win (the winner; 1 horse per race) and quinella (first and second in either order; 3 pairs).
- **Stakes** are in units of 100 and cannot exceed your money (no debt unless the loan option is on).
  Odds come from the exact probabilities (rounded down to 0.1); payouts are rounded down to 100.
- **A race** is five furlongs: all remaining dice roll, values are shown from the smallest die up, the
  lowest is out; on a tie the die with more faces is out. After furlong 4 the quinella is settled; the
  last die standing wins.
- **Prizes:** the owners of first and second get 2,000 and 1,000 from the house.
- **Options:** the fall rule (a die may fall out of the cup and is out that furlong), 1.5x win odds for
  each first-furlong loser, loans (borrow 10,000, repay 15,000 at the end), simplified odds (rounded
  down to easy values: 2, 4, 15, 40 rather than 2.1, 4.9, 16.7, 40.8).

**End:** most money wins. Owners' award: most prize money, and most prize money minus price.
"""

SUMMARY_JA = """\
6頭の馬は6個のダイス(4・6・8・10・12・20面体、1〜6枠)。6〜30人、所持金は各10,000。

- **馬主決め:** 全員が1種類のダイスと金額を封印して入札(入札しなくてもよい)。4面体から順に最高額の人が
  落札(同額は抽選)、落札金は胴元へ。誰も入札しなかったダイスは馬主でない人に抽選で無料で渡る。
  馬主になれるのは1人1頭まで。
- **馬券:** レースは5回(オプションで4〜6回)。各レースの前に全員が秘密に馬券を買い、「完了」を宣言する。
  単勝(1着を当てる、1レース1点まで)と連勝複式(1着と2着を順不同で当てる、3点まで)。
- **掛け金**は100単位で所持金まで(借金オプションがなければ借金不可)。
  オッズは正確な確率から計算し0.1倍単位で切り捨て、配当は100単位で切り捨て。
- **1レースは5ハロン:** 残ったダイスを全部振り、小さいダイスから順に目を公開し、最小の目が脱落。
  同じ目ならより多面体のダイスが脱落。4ハロン目で連複が確定し、最後に残ったダイスが1着。
- **賞金:** 1着と2着の馬主は胴元から賞金2,000と1,000を受け取る。
- **オプション:** 落馬ルール(カップから飛び出たダイスはそのハロンで脱落)、最初のハロンの脱落馬の
  単勝倍率を以降1.5倍、借金(10,000借りて最後に15,000返済)、簡易版のオッズ(2.1・4.9・16.7・40.8を
  2・4・15・40のように計算しやすい値に切り捨て)。

**終了:** 所持金が最も多い人の勝ち。馬主賞は賞金総額と「賞金−落札額」の両方で表彰。
"""

GAME = Game(
    id="dice-derby",
    title=Text("Dice Derby", "ダイスダービー"),
    summary=Text(SUMMARY_EN, SUMMARY_JA),
    blurb=Text("Six dice race over five furlongs: own one, bet on them, and finish with the most money.",
               "6つのダイスが5ハロンを競走。馬主になり、馬券を買い、所持金を増やす。"),
    match_class=DiceDerbyMatch,
    bots={"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot},
    labels=LABELS,
    encoding=DiceDerbyEncoder,
    determiniser=DiceDerbyDeterminiser,
    terminal=terminal,
    commands={"analyze": commands.analyze, "odds": commands.odds},
    web=Path(__file__).parent / "web",
    reveals=Reveals(
        # The race is the show: each die tumbles, the lowest drops out; who sealed a bid or finished
        # betting is quick news. A race of five furlongs takes about 28 s.
        durations={"roll": 700, "furlong_start": 400, "out": 900, "fall": 900, "furlong_rerun": 900,
                   "runoff_start": 900, "runoff_end": 1000, "quinella_decided": 1000, "race_result": 1600,
                   "win_paid": 1200, "quinella_paid": 1200, "prizes": 1200, "auction_result": 1000,
                   "bid_sealed": 250, "my_bid": 400, "betting_done": 250, "ticket_bought": 400,
                   "ticket_cancelled": 400, "loan_taken": 400, "betting_open": 800, "betting_closed": 800},
        chapters=frozenset({"betting_open"}),
    ),
    samples=Samples(
        golden=Setup(6, {"races": 4}),
        conformance=Conformance(seats=(6, 12), deep_every=3,
                                options={"races": 4, "fall_rule": True, "fall_probability": 0.2,
                                         "loans": True, "loser_boost": True, "simple_odds": True}),
    ),
)
