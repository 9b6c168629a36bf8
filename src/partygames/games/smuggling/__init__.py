"""The Smuggling Game (密輸ゲーム): the third round of the Liar Game tournament (seed 000, first part)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from partygames.engine import Game, Options, RandomBot, Result, Text
from partygames.engine.game import ChatRules, Preset
from partygames.engine.reveals import Reveals
from partygames.engine.samples import Conformance, Samples, Setup
from partygames.engine.tournament import Figure, YenLine
from partygames.games.smuggling import commands, terminal
from partygames.games.smuggling.bots import EquilibriumBot, HeuristicBot, SearchBot
from partygames.games.smuggling.chat import inspection_channels
from partygames.games.smuggling.determinise import SmugglingDeterminiser
from partygames.games.smuggling.encoding import SmugglingEncoder
from partygames.games.smuggling.labels import LABELS
from partygames.games.smuggling.options import ORIGINAL, ORIGINAL_TEAM
from partygames.games.smuggling.rules import SmugglingMatch

# Shown as Markdown by `partygames rules`: blank lines separate paragraphs, bullets go on indented.
SUMMARY = Text(
    en="""Two teams, North and South (1-9 players each: 3 by default, 9 in the original rules). Every player
starts with 100,000,000 yen
in a third-country account and 300,000,000 yen in an account in the opposing country: 400,000,000 yen
lent by the organiser.

- **20 small games** (50 in the original rules); the teams take turns to smuggle (the first smuggling
  team is drawn by lot).
- **Representatives:** each small game each team picks one (team vote, or rotation): the smuggler and
  the inspector.
- **Packing:** the smuggler secretly packs a trunk with 0 to 100,000,000 yen from their
  opponent-country account.
- **Inspection room** (2 minutes; 10 in the original rules): the inspector declares "pass" or "doubt X"
  (X up to twice their third-country balance).

The declaration settles the trunk:

- Pass: the trunk goes to the smuggler's third-country account.
- Doubt, empty trunk: the inspector pays X/2 compensation to the smuggler.
- Doubt, 0 < trunk <= X: the trunk goes to the inspector's third-country account.
- Doubt, X < trunk: the trunk and X/2 compensation go to the smuggler.

After each small game the trunk, the declaration and the transfers are public.

**End:** the team with more money in its members' third-country accounts wins. Each player's prize:
own third-country balance plus an equal share of the money left in the opposing players'
opponent-country accounts, minus the 400,000,000 yen loan (a shortfall is a debt).
""",
    ja="""北の国と南の国の2チーム(各1〜9人、標準は3人、原作ルールは9人)。各プレイヤーは第3国口座に1億円、
相手国口座に3億円を持って始めます(計4億円は事務局からの借金)。

- **小ゲームを20回**(原作ルールは50回)行い、密輸側と検査側を交互に担当します(最初の密輸側は抽選)。
- **代表者:** 各小ゲームで各チームは密輸人・検査官をチーム投票(または輪番)で決めます。
- **準備:** 密輸人は相手国口座から0〜1億円をひそかにアタッシュケースに詰めます。
- **検査ルーム**(2分、原作ルールは10分): 検査官は「パス」か「ダウト X円」(第3国口座残高の2倍まで)を宣言します。

宣言によるケースの精算:

- パス: ケースの現金は密輸人の第3国口座へ。
- ダウトでケースが0円: ダウト額の半分を慰謝料として検査官が密輸人に支払う。
- ダウトで 0 < ケース ≤ X: ケースの現金は検査官の第3国口座へ。
- ダウトで X < ケース: ケースの現金と慰謝料(X/2)が密輸人の第3国口座へ。

各小ゲームの後、ケースの金額・宣言・振込は公開されます。

**終了:** チームメンバーの第3国口座の総額が多いチームの勝ち。各自の賞金は、自分の第3国口座の額+
相手チームの相手国口座に残った現金の等分−借金4億円(不足は負債)。
""",
)


def team_channels(seats: int, options: Options) -> Mapping[str, Sequence[int]]:
    """A private chat per team (even seats North, odd seats South), for the server's chat."""
    return {"team:north": list(range(0, seats, 2)), "team:south": list(range(1, seats, 2))}


def yen(result: Result) -> list[YenLine]:
    """Each player's money from the match, as the seed states it: 「ゲーム終了時に自分の第3国口座に入っている現金は、そのまま
    プレイヤーに賞金として与えられます」, plus the equal share of the money left in the opposing players'
    opponent-country accounts, minus 「最初に借りた4億円」 (a shortfall is a debt)."""
    return [YenLine(int(s.holdings["net"]), (
        Figure(Text("Third-country account", "第3国口座"), int(s.holdings["third"])),
        Figure(Text("Share of the money left in your country", "相手チームの相手国口座の残りの等分"), int(s.holdings["share"])),
        Figure(Text("The loan repaid", "借金の返済"), -int(s.holdings["repay"]))))
        for s in sorted(result.seats, key=lambda s: s.seat)]


def rating_teams(seats: int) -> list[list[int]]:
    """The teams as ratings see them: North (even seats), South (odd seats)."""
    return [list(range(0, seats, 2)), list(range(1, seats, 2))]


GAME = Game(
    id="smuggling",
    title=Text("The Smuggling Game", "密輸ゲーム"),
    summary=SUMMARY,
    blurb=Text("Two teams smuggle cash past each other's inspectors: bluff, doubt, and count the yen.",
               "2チームが互いの検査官の目を盗んで現金を密輸する、ブラフとダウトの駆け引き。"),
    match_class=SmugglingMatch,
    # Three a side: a group of friends (with bots where they are fewer), 20 small games, ~33 min
    # (docs/rules/smuggling.md, The default table); the original's 18 seats and 50 small games are a preset.
    default_seats=6,
    presets={"original": Preset(
        Text("Original rules", "原作ルール"), 2 * ORIGINAL_TEAM, ORIGINAL,
        Text("Two teams of 9, 50 small games, 10 minutes in the inspection room",
             "9人ずつの2チーム・小ゲーム50回・検査ルーム10分"))},
    bots={"random": RandomBot, "heuristic": HeuristicBot, "equilibrium": EquilibriumBot, "search": SearchBot},
    labels=LABELS,
    encoding=SmugglingEncoder,
    determiniser=SmugglingDeterminiser,
    terminal=terminal,
    commands={"analyze": commands.analyze},
    web=Path(__file__).parent / "web",
    # A channel per team for the whole match; each small game's inspection room for its smuggler and
    # inspector only (chat.py).
    chat=ChatRules(fixed=team_channels, during_match=inspection_channels),
    rating_teams=rating_teams,
    yen=yen,
    reveals=Reveals(
        # The trunk opening after the declaration is the reveal of a small game.
        durations={"settled": 3200, "vote_cast": 400, "trunk_packed": 800, "trunk_contents": 1000},
        chapters=frozenset({"vote_opened"}),
    ),
    samples=Samples(
        # The limits pinned as they were when the file was written (the original's).
        golden=Setup(4, {"team_size": 2, "small_games": 4, "vote_seconds": 120, "packing_seconds": 60,
                         "inspection_seconds": 600}),
        # One team size per run (the seat count follows it); voting needs two members.
        conformance=Conformance(seats=(4,), seeds=3, options={"team_size": 2, "small_games": 4}),
        # The original's table, as the benchmark figures have always been taken.
        benchmark=Setup(2 * ORIGINAL_TEAM, {**ORIGINAL, "team_size": ORIGINAL_TEAM}),
    ),
)
