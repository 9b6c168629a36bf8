"""Lucky Nine (ラッキーナイン, seed 004): press your luck on nine chests against the house."""

from __future__ import annotations

from partygames.engine import Game, RandomBot, Text
from partygames.games.lucky_nine.bots import HeuristicBot
from partygames.games.lucky_nine.rules import LuckyNineMatch

SUMMARY_EN = """\
Nine chests (wood, stone, coal, iron, lapis, redstone, gold, emerald, diamond); a chest holding
diamonds or prizes is lit. Everyone starts with 64 diamonds. At set-up the house puts 1 diamond each
into lapis, redstone, gold and emerald and the rest of one per player into the diamond chest.
On your turn press the button: the dropper shows one chest, each equally likely.
- Lit chest (hit): take what it holds (from the diamond chest: all of one kind), then continue
  (press again) or pass.
- Empty chest (miss): pay the stake into that chest and into the diamond chest (twice the stake into
  the diamond chest if it was the diamond chest); your turn ends.
After a turn you may drop out for the rest of the game.
A round is one turn each (7+ players) or two turns each (6 or fewer). 5 rounds with stakes 1-2-4-6-9
(or 4 rounds 1-3-6-9, 6 rounds 1-2-4-6-8-9). Between rounds the house tops every lit chest except
the diamond chest up to the next stake. If a take leaves every chest empty, the house puts the stake
into lapis, redstone, gold and emerald. A player with fewer diamonds than the stake who misses pays
all into the diamond chest and is out. At the end the house collects the chests; most diamonds wins.
Variants: a triple diamond, b sweep bonus, c no repeated result, d chain bonus."""

SUMMARY_JA = """\
木・石・石炭・鉄・ラピス・レッドストーン・金・エメラルド・ダイヤの9つのチェスト。ダイヤや賞品が
入っているチェストはランプが点灯します。各プレイヤーの初期ダイヤは64個。開始前に主催者が
ラピス・レッドストーン・金・エメラルドに1個ずつ、ダイヤチェストに残り(人数-4個)を入れます。
手番ではボタンを押し、ドロッパーが9つのうち1つを等確率で出します。
- 点灯チェスト(あたり): 中身を取る(ダイヤチェストは一種類を宣言)。その後「続行」か「パス」。
- 空のチェスト(ハズレ): そのチェストとダイヤチェストに賭け金を投入(出目がダイヤなら
  ダイヤチェストに2倍)。手番終了。
手番を終えた後「ドロップアウト」できます(以後ゲーム終了まで手番なし)。
1ラウンドは7名以上なら各1回、6名以下なら各2回の手番。5ラウンド・賭け金1・2・4・6・9
(4ラウンド1・3・6・9、6ラウンド1・2・4・6・8・9も可)。ラウンドの合間に、ダイヤチェスト以外の
ダイヤが入っているチェストを次の賭け金まで補充。ダイヤを受け取った後に全チェストが空なら、
主催者がラピス・レッドストーン・金・エメラルドに賭け金分ずつ入れます。手持ちが賭け金より
少なくハズレを引いたら全額をダイヤチェストへ入れて失格。終了時チェストのダイヤは主催者が回収。
ダイヤが最も多い人の勝ち。変則: a トリプルダイヤ、b 総取りボーナス、c 連続出目なし、d チェーンボーナス。"""

GAME = Game(
    id="lucky-nine",
    title=Text("Lucky Nine", "ラッキーナイン"),
    seed_file="004_9a22497c861455cd.txt",
    match_class=LuckyNineMatch,
    summary=Text(SUMMARY_EN, SUMMARY_JA),
    bots={"random": RandomBot, "heuristic": HeuristicBot},
    extras={
        "golden": {"seats": 3, "options": {"rounds": 4}},
        "conformance": {"seats": [2, 6, 7, 20], "seeds": 2, "deep_every": 1,
                        "options": {"rounds": 4, "special_prizes": [{"name": "elytra", "name_ja": "エリトラ"}],
                                    "sweep_bonus": True, "chain_bonus": True, "no_repeat": True,
                                    "triple_diamond": True}},
    },
)
