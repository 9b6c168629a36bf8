"""Musical Chairs (イス取りゲーム): the final of the Liar Game tournament (seed 000, last part)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from partygames.engine import Game, Options, Result, Text
from partygames.engine.game import ChatRules, Dynamics, Preset
from partygames.engine.reveals import Reveals
from partygames.engine.samples import Conformance, Samples, Setup
from partygames.engine.tournament import Figure, YenLine
from partygames.games.musical_chairs import commands, terminal
from partygames.games.musical_chairs.bots import HeuristicBot, RealTimeRandomBot, SearchBot
from partygames.games.musical_chairs.determinise import MusicalChairsDeterminiser
from partygames.games.musical_chairs.encoding import MusicalChairsEncoder
from partygames.games.musical_chairs.labels import LABELS
from partygames.games.musical_chairs.options import MEDAL_YEN, SEED_PARTICIPANTS, MusicalChairsOptions
from partygames.games.musical_chairs.rules import MusicalChairsMatch


def summary(medals: int) -> Text:
    """The rules summary for players who start with `medals` medals each (issue 29: it said 23 to a table
    of 12, whose players hold 11)."""
    return Text(
        en=f"""An island with a totem pole on its plaza and chairs numbered 1 to C (default: players + 1). Players and
the gallery (ガヤ: everyone out) walk the island; positions are public. The game ends when one player is left.
- A period: a break (talk, medals, free movement), then GO: every player runs to the totem pole, touches
  it, then runs to a chair. A player sits on a free chair, never on the chair number they held at the end
  of the previous race. A seated player who walks away keeps the seat for 10 seconds.
- When every player is seated, or the race time is up, every player not seated is out and joins the
  gallery. The gallery may hold a free chair by standing at it: it then seats only the player they name.
- Then (after a gathering time, if the options give one) everyone votes in secret for the parent (a
  player; abstaining is allowed); a tie has one run-off, then a lot. The parent removes one chair.
- If every remaining player fails to sit, that race is run once more; if again nobody sits, nobody wins
  and every medal is void.
- Medals: each player starts with {medals} medals bearing their name (participants - 1 by default). Anyone
  may give medals to anyone at any time; holdings and transfers are private. Medals of a player who is out are void. At
  the end every holder of the winner's medals is paid 100,000,000 yen per medal.""",
        ja=f"""トーテムポールのある広場を中心とした島に、1〜C番のイス(既定: プレイヤー数+1)。プレイヤーとガヤ(敗退者)は
島を歩けます。位置は全員に公開。最後の1人が決まった時点でゲーム終了。
- 1ピリオド: 休憩(会話・メダル・自由移動)の後スタート。プレイヤーはトーテムポールまで走ってタッチし、
  その後イスへ走ります。空いているイスに座れます。ただし前のレースで座ったのと同じ番号のイスには座れません。
  座った後イスを離れても10秒間は席が残ります。
- 全員が座るか制限時間が来たら、座れなかったプレイヤーは敗退してガヤになります。ガヤは空いているイスの所に
  立って押さえることができ、そのイスには指名したプレイヤーしか座れません。
- その後(設定により集合時間の後)、全員の無記名投票で親を決めます(プレイヤーのみ・棄権可)。
  同数なら1回だけ決選投票、その後は抽選。親はイスを1つ除外します。
- 残り全員が座れなかったら、そのレースを1回だけやり直し、再び誰も座れなければ勝者なし・メダルはすべて無効。
- メダル: 各プレイヤーは自分の名前のメダル{medals}枚(既定は参加者数-1)を持って始めます。誰でもいつでも誰にでも渡せます。
  所持数と受け渡しは当事者だけが知ります。敗退者の名前のメダルは無効。最後に勝者の名前のメダル1枚につき
  1億円が、持っている人に支払われます。""",
    )


#: The summary of a room at the default seats (six players: five medals each).
SUMMARY = summary(MusicalChairsOptions.model_validate(MusicalChairsOptions.follow_seats(6)).medal_count)


def summary_for(options: Options, seats: int) -> Text:
    assert isinstance(options, MusicalChairsOptions)
    return summary(options.medal_count)

def after_pandemic(result: Result, options: Options, seats: int) -> dict[str, Any]:
    """The Liar Game final after its qualifier, with the same people (`予選敗退者、本戦敗退者を「ガヤ」と呼び`):
    the Pandemic Game's qualifiers are the players, everyone else ガヤ."""
    qualifiers = sorted(s.seat for s in result.seats if s.is_winner)
    return {"players": len(qualifiers), "gallery": seats - len(qualifiers), "player_seats": qualifiers}


def yen(result: Result) -> list[YenLine]:
    """What each participant is paid: 「最終的に生き残った1人の名前のメダルだけが1枚1億円で換金できます」, the winner's medals
    it holds at 1億 each. Nothing is taken off: 「つまり、最初に貸し付けられた1億円は最初から引いてあります」 (the loan is
    already inside the set of 23)."""
    return [YenLine(int(s.holdings["payout"]), (
        Figure(Text("The winner's medals held", "持っている勝者のメダル"), int(s.holdings["winner_medals"]), yen=False),
        Figure(Text("Value of a medal", "メダル1枚の価値"), MEDAL_YEN)))
        for s in sorted(result.seats, key=lambda s: s.seat)]


#: The conformance suite's table (see `samples` below).
CONFORMANCE: dict[str, Any] = {
    "players": 3, "gallery": 2, "island": "test", "speed": 100, "race_seconds": 10, "first_break_seconds": 5,
    "break_seconds": 5, "vote_seconds": 5, "remove_seconds": 5}

GAME = Game(
    id="musical-chairs",
    title=Text("Musical Chairs", "イス取りゲーム"),
    summary=SUMMARY,
    summary_for=summary_for,
    blurb=Text("Race for the chairs on an island in real time and bribe with medals: the last one seated wins.",
               "島でイスをリアルタイムに奪い合い、メダルで買収する。最後に座っていた1人の勝ち。"),
    match_class=MusicalChairsMatch,
    # A room starts at six seats, six players (its seat count picks players and gallery: `follow_seats`).
    default_seats=6,
    # The defaults are the quicker digital table (24 participants, players + 1 chairs, 1-minute races:
    # about 13 min); the original's figures are a preset (docs/rules/musical-chairs.md, The default table).
    # The original rules are its figures and its voting place: 「その時間に投票会場に居なかった者は…「棄権」」
    # (docs/rules/musical-chairs.md, The parent vote).
    presets={"original": Preset(
        Text("Original rules", "原作ルール"), SEED_PARTICIPANTS, {"preset": "seed", "vote_at_totem": True},
        Text("6 players and 18 in the gallery, 25 chairs, 10-minute races, the vote 5 minutes after at the "
             "totem (absent: abstains)",
             "プレイヤー6人とガヤ18人・イス25個・イス取り10分・投票は5分後にトーテムポールで(不在は棄権)"))},
    bots={"random": RealTimeRandomBot, "heuristic": HeuristicBot, "search": SearchBot},
    dynamics=Dynamics.REAL_TIME,
    labels=LABELS,
    encoding=MusicalChairsEncoder,
    determiniser=MusicalChairsDeterminiser,
    terminal=terminal,
    web=Path(__file__).parent / "web",
    commands={"analyze": commands.analyze},
    # Bribes are negotiated: any two participants may talk privately.
    chat=ChatRules(direct=True),
    # Real time: events are news in the log and never hold the match clock for a staged reveal.
    reveals=Reveals(default=0, chapters=frozenset({"break"})),
    # Terminal play and simulate run on a virtual clock: the rounds tempo (docs/rules/musical-chairs.md).
    virtual_clock_options={"tempo": "rounds"},
    follows={"pandemic": after_pandemic},
    yen=yen,
    samples=Samples(
        # Short phases and a quick runner: also what the server's bot test and real-game test play on the
        # wall clock.
        golden=Setup(5, {"players": 3, "gallery": 2, "island": "test", "tempo": "rounds", "speed": 50,
                         "race_seconds": 10, "first_break_seconds": 10, "break_seconds": 10, "vote_seconds": 10,
                         "remove_seconds": 10}),
        # Real time on the small island at a high speed (a chair is under a second away), so that random
        # moves reach chairs and matches reach votes, run-offs and removals; short phases. The variant (two
        # players and two chairs: a short match) gathers 2 s before the vote, where only ballots cast near the
        # totem count.
        conformance=Conformance(
            seats=(5,), seeds=4, deep_every=8, options=CONFORMANCE,
            variants=({**CONFORMANCE, "players": 2, "gallery": 3, "chairs": 2, "gather_seconds": 2,
                       "vote_at_totem": True},)),
        benchmark=Setup(24, {"tempo": "rounds"}),
        # The research interfaces play the rounds tempo (time moves on actions): three players and one ガヤ
        # on the small island, a quick runner and short phases, so that holds, votes and removals happen.
        rl=Setup(4, {"players": 3, "gallery": 1, "island": "test", "tempo": "rounds", "speed": 100,
                     "race_seconds": 10, "first_break_seconds": 5, "break_seconds": 5, "vote_seconds": 5,
                     "remove_seconds": 5}),
    ),
)
