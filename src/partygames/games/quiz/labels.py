"""It's a QUIZ?'s labels, for the terminal and the web alike."""

from __future__ import annotations

from partygames.engine.labels import Labels
from partygames.engine.text import Text
from partygames.games.quiz.rules import Termination

LABELS = Labels(
    actions={
        "ready": Text("Done memorising", "記憶完了"),
        "extend": Text("Vote to extend by 60 s", "60秒延長に賛成"),
        "place": Text("Place a marker on a white card", "白い問題カードにマーカーを置く"),
        "pass": Text("Pass", "パス"),
        "open": Text("Open this white card", "この白い問題カードを開く"),
        "answer": Text("Answer", "解答"),
        "secret_money": Text("Pass and take secret money", "パスして裏金"),
        "peek": Text("Pass and peek", "パスして覗き見"),
        "look": Text("Peek at a face-down card", "伏せられたカードを覗き見る"),
        "show": Text("Show the peeked card", "覗き見たカードを見せる"),
        "stop": Text("Stop peeking", "覗き見を終える"),
        "deal": Text("Deal the card to a row", "正解カードを列に置く"),
        "move": Text("Move a white card", "白い問題カードを動かす"),
        "swap": Text("Swap two white cards", "白い問題カード2枚を入れ替える"),
        "done": Text("Done moving", "移動を終える"),
        "call": Text("Call a card", "カードを宣言してめくる"),
        "give": Text("Give markers", "マーカーを渡す"),
        "wait": Text("Nothing to give now", "今は渡さない"),
    },
    params={
        "card": Text("Card (w = white card at a place 0-15; aQ.I = answer I of question Q's row)",
                     "カード(w = 白カードの位置0〜15、aQ.I = 問題Qの列のI枚目)"),
        "kind": Text("Marker (score / money)", "マーカー(score = 得点 / money = 裏金)"),
        "words": Text("Answer words in order, nearest the question first (numbers of the word list)",
                      "正解を問題カードに近い順に(単語一覧の番号)"),
        "paid_money": Text("Paid in secret money (the rest in score markers)", "うち裏金マーカーで払う数(残りは得点マーカー)"),
        "money": Text("Secret-money markers", "裏金マーカーの数"),
        "to": Text("To seat(s)", "相手の席"),
        "row": Text("Row (question number)", "列(問題番号)"),
        "cards": Text("Two white cards (places)", "白カード2枚(位置)"),
        "word": Text("Word (number of the word list)", "単語(単語一覧の番号)"),
        "score": Text("Score markers", "得点マーカーの数"),
    },
    phases={
        "memorise": Text("Memorising", "記憶"),
        "select": Text("Question selection", "問題の選択"),
        "open": Text("The parent opens a question", "親が問題を開く"),
        "answer": Text("Answer", "解答"),
        "peek": Text("Peeking", "覗き見"),
        "deal": Text("Dealing the answer cards", "正解カードの配置"),
        "move": Text("Moving white cards", "白い問題カードの移動"),
        "tiebreak": Text("Tie-break", "同点決勝"),
        "over": Text("Game over", "ゲーム終了"),
    },
    terminations={
        Termination.MOST_POINTS: Text("Most points", "最高得点"),
        Termination.TIE_BREAK: Text("Won the tie-break", "同点決勝で勝利"),
        Termination.TIE_BREAK_LOT: Text("Tie-break decided by lot", "同点決勝を抽選で決定"),
    },
    holdings={
        "score": Text("Score markers", "得点マーカー"),
        "money": Text("Secret money", "裏金マーカー"),
        "prize": Text("Question-8 prize", "第8問の賞"),
        "total": Text("Points", "得点"),
    },
    details={
        "prize_winner": Text("Question-8 winner (the 1億万 prize)", "第8問の勝者(1億万点)"),
        "tiebreak": Text("Tie-break", "同点決勝"),
        "seats": Text("Tied seats", "同点の席"),
        "calls": Text("Calls", "宣言"),
        "seat": Text("Seat", "席"),
        "card": Text("Card", "カード"),
        "word": Text("Word called", "宣言した単語"),
        "actual": Text("Word on the card", "実際の単語"),
        "right": Text("Right", "的中"),
    },
)
