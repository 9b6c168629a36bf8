"""Last Man Standing (seed 001): hire card fighters, fight five sealed rounds, collect bounties."""

from __future__ import annotations

from pathlib import Path

from partygames.engine import Game, RandomBot, Text
from partygames.engine.reveals import Reveals
from partygames.engine.samples import Conformance, Samples, Setup
from partygames.games.last_man_standing import commands, terminal
from partygames.games.last_man_standing.bots import HeuristicBot, SearchBot
from partygames.games.last_man_standing.determinise import LastManStandingDeterminiser
from partygames.games.last_man_standing.encoding import LastManStandingEncoder
from partygames.games.last_man_standing.labels import LABELS
from partygames.games.last_man_standing.rules import LastManStandingMatch

# Shown as Markdown by `partygames rules`: blank lines separate paragraphs.
SUMMARY_EN = """\
4-8 players, a 52-card deck (no jokers); cards are fighters. Ranks: 2 < 3 < ... < 10 < J < Q < K < A.

- **Set-up:** $50 each; everyone pays the entry fee into the pot (4 players $15, 5 $16, 6 $18,
  7 $20, 8 $22) and is dealt 2 secret cards.
- **Hiring:** four cards lie face up at $0, $2, $4, $6 (the $6 card nearest the deck). From a random
  start player, clockwise, each takes one card they can afford and pays its price (set aside; option:
  into the pot); the cards slide toward $0 and a new card fills the $6 slot. Until every hand holds 6.
- **Five rounds:** everyone plays one card face down at once, then all are revealed and fight.

The fight:

- The lowest rank, if held by one fighter only, kills every fighter of the highest rank.
- Then each other rank from low to high: a rank held by one living fighter kills every living lower
  fighter. A rank held by two or more fighters kills nothing (a stand-off).
- A fighter killed earlier does not act. Survivors stay and fight again next round, so a player may
  have several fighters, who may even kill each other.

**Bounties:** the kills of a round pay $1, $2, $3, ... from the pot to the killer's player (one
fighter killing two makes two kills). When the pot runs dry the game ends at once.

**End:** after round 5 the surviving fighters share the pot equally (whole chips; the remainder
stays on the table). Most chips wins; ties share the win.
"""

SUMMARY_JA = """\
4〜8人、ジョーカーを抜いたトランプ1組。カードは闘士。ランクは 2 < 3 < ... < 10 < J < Q < K < A。

- **準備:** 各自 $50。参加料をテーブルの中央に払う(4人 $15、5人 $16、6人 $18、7人 $20、8人 $22)。
  手札として2枚ずつ秘密に配られる。
- **雇用:** 表向きの4枚に $0、$2、$4、$6 の値段(山札に近いほど高い)。ランダムなスタートプレイヤーから
  時計回りに、払える1枚を選んで代金を払う(横に分けておく。オプションで中央へ)。残りを $0 側へ詰め、
  山札から1枚を $6 の位置に補充。全員の手札が6枚になるまで。
- **5ラウンド:** 全員が1枚を裏向きで同時にプレイし、表にして戦いを解決する。

戦いの解決:

- 最もランクの低い闘士が1人なら、最もランクの高い闘士をすべて殺す。
- 以降、ランクの低い順に: そのランクの生きている闘士が1人なら、それより低い生きている闘士をすべて殺す。
  同じランクが複数ならにらみ合いで殺しは行われない。
- 先に殺された闘士は行動しない。生き残った闘士は次のラウンドも戦う(1人が複数の闘士を持ち、
  味方同士で殺し合うこともある)。

**報酬:** ラウンドごとに1回目の殺しは $1、2回目 $2、3回目 $3 ... をテーブルの中央から殺した闘士の
プレイヤーへ(1人が2人を殺せば2回の殺し)。中央のチップがなくなったら即終了。

**終了:** 5ラウンド後、生き残った闘士で中央のチップを均等に分ける(整数。余りは中央に残る)。
最もチップの多いプレイヤーの勝ち(同数は全員勝ち)。
"""

GAME = Game(
    id="last-man-standing",
    title=Text("Last Man Standing", "ラストマンスタンディング"),
    summary=Text(SUMMARY_EN, SUMMARY_JA),
    blurb=Text("Hire playing cards as fighters, fight five sealed rounds, and collect bounties for the kills.",
               "トランプの闘士を雇い、伏せて出す5ラウンドを戦い、倒した数だけ報酬を得る。"),
    match_class=LastManStandingMatch,
    bots={"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot},
    labels=LABELS,
    encoding=LastManStandingEncoder,
    determiniser=LastManStandingDeterminiser,
    terminal=terminal,
    commands={"analyze": commands.analyze},
    web=Path(__file__).parent / "web",
    reveals=Reveals(
        # All the played cards turn over at once and fight: give people time to read it.
        durations={"fight": 3000, "played_face_down": 500, "hired": 1000, "round_started": 1000},
        chapters=frozenset({"round_started"}),
    ),
    samples=Samples(golden=Setup(4), conformance=Conformance(seats=(4, 6, 8))),
)

__all__ = ["GAME"]
