"""Lucky Nine (ラッキーナイン, seed 004): press your luck on nine chests against the house."""

from __future__ import annotations

from pathlib import Path

from partygames.engine import Game, RandomBot, Text
from partygames.engine.reveals import Reveals
from partygames.engine.samples import Conformance, Samples, Setup
from partygames.games.lucky_nine import commands, terminal
from partygames.games.lucky_nine.bots import HeuristicBot, SearchBot
from partygames.games.lucky_nine.determinise import LuckyNineDeterminiser
from partygames.games.lucky_nine.encoding import LuckyNineEncoder
from partygames.games.lucky_nine.labels import LABELS
from partygames.games.lucky_nine.rules import LuckyNineMatch

SUMMARY_EN = """\
- Nine chests: wood, stone, coal, iron, lapis, redstone, gold, emerald, diamond. A chest holding diamonds or prizes is lit.
- Everyone starts with 64 diamonds. The house puts 1 diamond each into lapis, redstone, gold and emerald, and max(0, players - 4) into the diamond chest.
- Your turn: press the button; the dropper shows one of the nine chests, each equally likely.
- Lit chest (hit): take what it holds (from the diamond chest: all of one kind), then continue (press again) or pass.
- Empty chest (miss): pay the stake into that chest and into the diamond chest (twice the stake into the diamond chest if you drew it). Your turn ends.
- After your turn you may drop out: no more turns until the end.
- A round is one turn each with 7+ players, two with 6 or fewer. 5 rounds, stakes 1-2-4-6-9 (or 4 rounds 1-3-6-9, 6 rounds 1-2-4-6-8-9).
- Between rounds the house tops every lit chest except the diamond chest up to the next stake.
- Special rule a: if a take leaves every chest empty, the house puts the stake into lapis, redstone, gold and emerald.
- Special rule b: holding less than the stake, a miss sends all you hold into the diamond chest and you are out.
- At the end the house collects the chests. Most diamonds (plus the value of claimed prizes) wins.
- Variant a, triple diamond (option triple_diamond): a miss on the empty diamond chest pays three times the stake into it, not twice.
- Variant b, sweep bonus (option sweep_bonus): a hit that leaves no lit chest besides the diamond chest also takes one slot of the diamond chest (up to 64 diamonds, or one prize).
- Variant c, no repeat (option no_repeat): the dropper never shows the same chest twice in a row.
- Variant d, chain bonus (option chain_bonus): every 5th hit in a row within a turn pays five times the stake at once.
"""

SUMMARY_JA = """\
- 木・石・石炭・鉄・ラピスラズリ・レッドストーン・金・エメラルド・ダイヤの9つのチェスト。ダイヤや賞品が入っているチェストはランプが点灯します。
- 各プレイヤーの初期ダイヤは64個。主催者がラピス・レッドストーン・金・エメラルドに1個ずつ、ダイヤチェストに残り(人数-4個、4人以下なら0個)を入れます。
- 手番: ボタンを押すと、ドロッパーが9つのチェストのうち1つを等確率で出します。
- 点灯チェスト(あたり): 中身を取ります(ダイヤチェストは一種類を宣言)。その後「続行」か「パス」。
- 空のチェスト(ハズレ): そのチェストとダイヤチェストに賭け金を投入(出目がダイヤならダイヤチェストに2倍)。手番終了。
- 手番を終えた後「ドロップアウト」できます(ゲーム終了まで手番なし)。
- 1ラウンドは7名以上なら各1回、6名以下なら各2回の手番。5ラウンド・賭け金1・2・4・6・9(4ラウンド1・3・6・9、6ラウンド1・2・4・6・8・9も可)。
- ラウンドの合間に、ダイヤチェスト以外のダイヤが入っているチェストを次の賭け金まで補充します。
- 特殊a: ダイヤを受け取った後に全チェストが空なら、主催者がラピス・レッドストーン・金・エメラルドに賭け金分ずつ入れます。
- 特殊b: 手持ちが賭け金より少なくハズレを引いたら、全額をダイヤチェストへ入れて失格。
- 終了時、チェストのダイヤは主催者が回収。ダイヤ(と獲得した賞品の価値)が最も多い人の勝ち。
- 変則a トリプルダイヤ(オプション triple_diamond): 空のダイヤチェストでハズレたら、ダイヤチェストへ賭け金の2倍ではなく3倍を投入。
- 変則b 総取りボーナス(オプション sweep_bonus): あたりでダイヤチェスト以外の点灯チェストがなくなったら、ダイヤチェストの賞品も1マス(ダイヤ64個まで、または賞品1つ)獲得。
- 変則c 連続出目なし(オプション no_repeat): ドロッパーは同じチェストを2回続けて出さない。
- 変則d チェーンボーナス(オプション chain_bonus): 1回の手番で5回連続あたりごとに、その場で賭け金の5倍のダイヤを進呈。
"""

GAME = Game(
    id="lucky-nine",
    title=Text("Lucky Nine", "ラッキーナイン"),
    summary=Text(SUMMARY_EN, SUMMARY_JA),
    blurb=Text("Press your luck on nine chests against the house: take the diamonds, or stop before a miss.",
               "9つのチェストで運試し。ダイヤを取って続けるか、ハズレの前にやめるか。"),
    match_class=LuckyNineMatch,
    # A party of four: 40 turns, about 24 min (docs/rules/lucky-nine.md, The default table).
    default_seats=4,
    bots={"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot},
    labels=LABELS,
    encoding=LuckyNineEncoder,
    determiniser=LuckyNineDeterminiser,
    terminal=terminal,
    commands={"analyze": commands.analyze},
    web=Path(__file__).parent / "web",
    reveals=Reveals(
        # The dropper opening a chest is the moment everyone watches.
        durations={"draw": 1500, "take": 1000, "pay": 1000, "pass": 700, "refill": 700},
        chapters=frozenset({"round_start"}),
    ),
    samples=Samples(
        # The time limits pinned as they were when the file was written.
        golden=Setup(3, {"rounds": 4, "press_seconds": 30, "decide_seconds": 60, "dropout_seconds": 30}),
        conformance=Conformance(seats=(2, 6, 7, 20),
                                options={"rounds": 4, "special_prizes": [{"name": "elytra", "name_ja": "エリトラ"}],
                                         "sweep_bonus": True, "chain_bonus": True, "no_repeat": True,
                                         "triple_diamond": True}),
        # A party-sized table: random two-seat games end after ~10 actions and measure set-up more than play.
        benchmark=Setup(6),
    ),
)
