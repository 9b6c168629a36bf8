"""The Pandemic Game (感染ゲーム): the qualifier of the fourth round of the Liar Game tournament (seed 000,
second part), played in real time."""

from __future__ import annotations

from pathlib import Path

from partygames.engine import Game, RandomBot, Result, Text
from partygames.engine.game import ChatRules, Dynamics, Preset
from partygames.engine.reveals import Reveals
from partygames.engine.samples import Conformance, Samples, Setup
from partygames.engine.tournament import YenLine
from partygames.games.pandemic import commands, terminal
from partygames.games.pandemic.bots import CautiousBot, CheckerBot, GreedyBot, HeuristicBot, SearchBot
from partygames.games.pandemic.determinise import PandemicDeterminiser
from partygames.games.pandemic.encoding import PandemicEncoder
from partygames.games.pandemic.labels import LABELS
from partygames.games.pandemic.rules import PandemicMatch

SUMMARY = Text(
    en="""12 players (4-24), each with a watch that secretly holds a status, infected or healthy, and a number of
vaccines. 2 players are infected at the start, by lot; nobody knows who, not even themselves. Nobody has
a vaccine. The game runs in real time for 8 minutes.
- Contact: offer contact to another player; they accept or decline. Who touched whom is public, the
  outcome is not.
  Healthy + healthy: both gain a vaccine (once per pair, ever). Healthy without vaccine + infected: the
  healthy one is infected. Healthy with vaccines + infected: the healthy one loses a vaccine and is
  infected, the infected one is healthy. Infected + infected: nothing.
- Private rooms (4): after 15 s inside you alone read your own watch (status and vaccines). Stay at most
  60 s; a queue forms when all are taken. You can never prove your status to anyone.
- The switch: if you are infected and hold a vaccine, you lose one and are healthy; otherwise nothing.
  Nobody is told which.
- When time is up, the 6 healthy players with most vaccines pass (ties at the cut by lot).""",
    ja="""参加者12人(4〜24人)。各自の腕時計には「感染」か「正常」のステータスとワクチンの数が秘密裡に記録されて
います。初期の感染者は抽選で2人。誰が感染者かは本人にも知らされません。ワクチンは誰も持っていません。
ゲームはリアルタイムで8分間。
- 接触: 相手に接触を申し出て、相手が受ければ接触します。誰と誰が接触したかは公開、結果は非公開です。
  正常者同士: 両者ワクチン+1(同じ2人では1回限り)。ワクチンなしの正常者と感染者: 正常者が感染。
  ワクチンありの正常者と感染者: 正常者はワクチンを1本失い感染、感染者は正常に。感染者同士: 変化なし。
- 個室(4室): 入って15秒たつと自分の腕時計(ステータスとワクチン数)を自分だけが確認できます。滞在は
  最長60秒、満室なら順番待ち。自分のステータスを他人に証明することはできません。
- スイッチ: 感染者でワクチンを持っていれば1本失って正常者に。そうでなければ何も起きません。どちらかは
  誰にも知らされません。
- 時間切れの時点で、ワクチンの多い正常者の上位6名が予選突破(ボーダーの同数は抽選)。""",
)

def yen(result: Result) -> list[YenLine]:
    """The qualifier pays nothing (the seed names no prize or debt for it: 「参加者が多かったため、人数を絞る目的で行われました」);
    it says who goes on to the final as a player and who watches it as ガヤ."""
    return [YenLine(0, note=Text("Qualified: a player of the final", "予選突破: 本戦のプレイヤー") if s.is_winner
                    else Text("Out: the gallery (ガヤ) of the final", "予選敗退: 本戦のガヤ"))
            for s in sorted(result.seats, key=lambda s: s.seat)]


GAME = Game(
    id="pandemic",
    title=Text("The Pandemic Game", "感染ゲーム"),
    summary=SUMMARY,
    blurb=Text("Touch watches in real time to collect vaccines without catching the infection nobody can see.",
               "誰が感染者か分からない中、リアルタイムに接触してワクチンを集める。"),
    match_class=PandemicMatch,
    yen=yen,
    default_seats=12,  # 「参加者は12人。」: at 4 seats every healthy seat would be among the 6 who pass
    # 「自分のステータスがどうであるかを他人に証明することは出来ず、また他人のステータスを知ることも出来ません」: public
    # contacts (the default, an open hall) let the table work a status out; the original's do not
    # (docs/rules/pandemic.md, The default table).
    presets={"original": Preset(
        Text("Original rules", "原作ルール"), 12, {"public_contacts": False},
        Text("Who touched whom is known only to the two, so nobody can prove or learn another's status",
             "誰と誰が接触したかは本人たちだけが知る: 他人のステータスを証明することも知ることもできない"))},
    bots={"random": RandomBot, "heuristic": HeuristicBot, "cautious": CautiousBot, "greedy": GreedyBot,
          "checker": CheckerBot, "search": SearchBot},
    dynamics=Dynamics.REAL_TIME,
    labels=LABELS,
    encoding=PandemicEncoder,
    determiniser=PandemicDeterminiser,
    terminal=terminal,
    commands={"analyze": commands.analyze},
    web=Path(__file__).parent / "web",
    # Negotiation is the game: any two seats may talk privately (docs/rules/pandemic.md, Chat).
    chat=ChatRules(direct=True),
    # Real time does not wait for anyone's feed: events are news in the log, never a staged reveal that
    # would hold the match clock (docs/server.md, Reveals).
    reveals=Reveals(default=0, chapters=frozenset({"period_started"})),
    # Terminal play and simulate run on a virtual clock: rounds of sealed intents (docs/rules/pandemic.md).
    virtual_clock_options={"tempo": "rounds"},
    samples=Samples(
        # Rounds of 30 game seconds over 5 minutes: ten sealed rounds, every rule met along the way.
        golden=Setup(5, {"tempo": "rounds", "step_seconds": 30, "minutes": 5, "qualifiers": 2}),
        # Real time with short stays and offers (rooms fill and free, offers lapse) and two periods with a
        # break between them; the rounds tempo with the vaccine threshold; and rounds with contacts and
        # presses told only to those involved (each seat's view, and its observation, sees less of the log);
        # and real time with private contacts, the original rules' (a busy time ending is seen by the two).
        conformance=Conformance(seats=(4, 7), seeds=2, deep_every=3,
                                options={"minutes": 1, "rooms": 1, "qualifiers": 2, "read_seconds": 5,
                                         "stay_seconds": 10, "offer_seconds": 5, "periods": 2,
                                         "break_seconds": 10},
                                variants=({"tempo": "rounds", "step_seconds": 5, "minutes": 1, "rooms": 1,
                                           "vaccine_threshold": 1},
                                          {"tempo": "rounds", "step_seconds": 5, "minutes": 1, "rooms": 1,
                                           "read_seconds": 5, "public_contacts": False, "public_presses": False},
                                          {"minutes": 1, "rooms": 1, "qualifiers": 2, "read_seconds": 5,
                                           "stay_seconds": 10, "offer_seconds": 5, "public_contacts": False})),
        benchmark=Setup(12, {"tempo": "rounds"}),
        # The research interfaces play the rounds tempo (time moves on actions): four seats, one infected,
        # six rounds of 10 game seconds, one room, so that readings, queues and cures all happen.
        rl=Setup(4, {"tempo": "rounds", "step_seconds": 10, "minutes": 1, "infected": 1, "qualifiers": 2,
                     "rooms": 1, "read_seconds": 5, "stay_seconds": 10}),
    ),
)
