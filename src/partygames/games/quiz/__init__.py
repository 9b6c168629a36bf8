"""It's a QUIZ? (くいずです, seed 002): memorise a table of cards, then answer quiz questions whose
"correct answers" are whatever words were dealt beside them."""

from __future__ import annotations

from pathlib import Path

from partygames.engine import Game, RandomBot, Text
from partygames.engine.game import ChatRules, Dynamics
from partygames.engine.reveals import Reveals
from partygames.engine.samples import Conformance, Samples, Setup
from partygames.games.quiz import commands, terminal
from partygames.games.quiz.bots import HeuristicBot, PerfectBot, SearchBot
from partygames.games.quiz.determinise import QuizDeterminiser
from partygames.games.quiz.encoding import QuizEncoder
from partygames.games.quiz.labels import LABELS
from partygames.games.quiz.rules import QuizMatch

SUMMARY_EN = """\
- 2-5 players (3-5 best). Ten questions, each with a black card (always open) and a white card; thirty answer words, shuffled and dealt three beside each black card. The joke of the game: a question's "correct answers" are whatever words lie in its row, not what is true.
- Memorise: for 120 s everything is open (the white cards lie at places on a board of 16). Then the forty cards go face down. Taking notes is not allowed: it is played on trust, as at the table.
- Eight questions. Selection: from the parent's left, each may put a marker (score or secret money) on a face-down white card, or pass. The parent opens one of the white cards with the fewest markers: that is the question. 2 score and 2 secret-money markers go to the field.
- Sealed choice: answer (the words of the row, nearest first, as many as you can), take secret money, or peek. Nothing written counts as peek.
- Peekers pay, per card, as many markers as there are peekers, and see the card for 10 s (they may show it to others).
- Secret money: one taker takes it all, two take one each, three or more nothing.
- A wrong word or two words in reverse order make an answer wrong. The most words wins alone: the field's score markers and the parent's seat. Two tied take one each.
- The asked row's cards are dealt to the shortest rows, and the parent may move up to two white cards.
- The end: a point per score marker, and 1 trillion points (1億万 in the original rules) to the sole winner of question 8. Markers may be given at any time, while answering too (not in the tie-break: the points are counted).
"""
SUMMARY_JA = """\
- 2〜5人用(3〜5人推奨)。問題は10問。各問題に黒いカード(常に表)と白いカードがあり、正解カード30枚をシャッフルして黒いカードの横に3枚ずつ並べます。つまり問題の「正解」は、その列に並んだ単語です(本当の答えではありません)。それがこのゲームの冗談です。
- 記憶: 120秒間すべてが表向き(白いカードは16マスの盤上に置かれます)。その後40枚が裏返されます。書き留めは禁止です(実物のゲームと同じく信頼で遊びます)。
- 全8問。問題の選択: 親の左隣から順に、伏せられた白いカードにマーカー(得点か裏金)を1個置くかパス。親はマーカーが最も少ない白いカードから1枚を開いて出題。得点マーカーと裏金マーカー各2個が場に出ます。
- 一斉に: 「解答」(列の単語を問題に近い順に、なるべく多く)、「裏金」、「覗き見」。何も書かなければ覗き見。
- 覗き見は1枚ごとに覗き見た人数分のマーカーを払い、10秒間カードを見られます(他人に見せることも可)。
- 裏金: 1人なら場の裏金を全部、2人なら1個ずつ、3人以上は誰も取れません。
- 誤った単語や順番の逆転は誤答。正解数の最多が単独なら勝者: 場の得点マーカーと親を得ます。2人同数なら1個ずつ。
- 開かれた正解カードは枚数の少ない列の末尾に配られ、親は白いカードを2枚まで動かせます。
- 終了: 得点マーカー1個1点、第8問の単独勝者に1億万点。マーカーの受け渡しはいつでも自由(解答の記入中も可。同点決勝では得点計算済みのため不可)。
"""

GAME = Game(
    id="quiz",
    title=Text("It's a QUIZ?", "くいずです"),
    summary=Text(SUMMARY_EN, SUMMARY_JA),
    blurb=Text("Memorise a table of cards, then answer questions whose \"right answers\" are the words dealt beside them.",
               "カードの並びを覚えて答えるクイズ。ただし「正解」は問題の横に配られた単語。"),
    match_class=QuizMatch,
    # The seed's 「3-5人推奨」: four, about 32 min (docs/rules/quiz.md, The default table).
    default_seats=4,
    bots={"random": RandomBot, "heuristic": HeuristicBot, "perfect": PerfectBot, "search": SearchBot},
    dynamics=Dynamics.REAL_TIME,
    labels=LABELS,
    encoding=QuizEncoder,
    determiniser=QuizDeterminiser,
    terminal=terminal,
    face_up=terminal.face_up,
    commands={"analyze": commands.analyze},
    web=Path(__file__).parent / "web",
    # Free negotiation: any two seats may talk privately (docs/rules/quiz.md, Negotiation).
    chat=ChatRules(direct=True),
    # The reveals people watch: the sheets, the row turned over, the scoring, each dealt card. A look is
    # private and a peek has its own countdown, so they never hold the clock (docs/server.md, Reveals).
    reveals=Reveals(durations={"sheets_revealed": 2500, "row_opened": 2500, "scored": 1500, "card_dealt": 900,
                               "question_opened": 1500, "looked": 0, "card_seen": 0, "card_shown": 0,
                               "peek_ended": 0, "memorise_vote": 0},
                    default=500, chapters=frozenset({"selection_started"})),
    samples=Samples(
        golden=Setup(3, {"memorise_seconds": 30}),
        conformance=Conformance(seats=(2, 3, 5), seeds=2, deep_every=5),
        benchmark=Setup(4),
        # The research interfaces: two seats (the smallest table), the shortest memorising time.
        rl=Setup(2, {"memorise_seconds": 30}),
    ),
)
