"""`partygames`: one entry point over the games, bots, analysis and the web platform."""

from __future__ import annotations

import copy
import html
import importlib
import itertools
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.measure import Measurement
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from partygames import games
from partygames.analysis.stats import wilson_interval
from partygames.analysis.tournament import SEARCH_SIMULATIONS
from partygames.analysis.tournament import simulate as run_simulation
from partygames.cli.bilingual import DatabaseUrlOption, DataDirOption, LangOption
from partygames.cli.narration import people as name_list
from partygames.cli.narration import tell
from partygames.cli.play import load_log, play_in_terminal, save_log
from partygames.cli.prose import Phrases, Prose
from partygames.cli.ratings import ratings_command
from partygames.cli.review import review_command
from partygames.cli.terminal import action_text, render_result, render_view
from partygames.cli.usage import BilingualGroup, speak_both
from partygames.engine.bots import TableInfo
from partygames.engine.errors import EngineError, InvalidOptions
from partygames.engine.game import Dynamics, Game
from partygames.engine.log import Entry
from partygames.engine.match import Event, _describe_counts
from partygames.engine.names import seat_names
from partygames.engine.search import Budget
from partygames.engine.session import Session
from partygames.engine.text import Lang, Text
from partygames.server.settings import DEFAULT_BOT_DELAY, DEFAULT_BOT_PACE, KNOBS

app = typer.Typer(help=f"Japanese gambling and party games, with the rules enforced. {games.availability().en}\n\n"
                       f"日本のギャンブル・パーティーゲームをルール通りに遊ぶ。{games.availability().ja}",
                  no_args_is_help=True, add_completion=False, cls=BilingualGroup)
analyze_app = typer.Typer(help="Exact odds, optimal policies and equilibria of a game. ゲームの分析(正確なオッズ、最適方針、均衡)。",
                          no_args_is_help=True)
odds_app = typer.Typer(help="Exact odds of a game. ゲームの正確なオッズ。", no_args_is_help=True)
app.add_typer(analyze_app, name="analyze")
app.add_typer(odds_app, name="odds")
db_app = typer.Typer(help="The server's database. サーバーのデータベース。", no_args_is_help=True)
app.add_typer(db_app, name="db")
app.command("ratings")(ratings_command)

speak_both()

out = Console()
err = Console(stderr=True)

THINK_MS = 500.0
"""How long a search bot thinks per decision in terminal play (milliseconds): a pause a player hardly notices."""

# Help is read before any option, so each help text holds both languages: English, then Japanese.
GameId = Annotated[str, typer.Argument(help="Game id (see `partygames games`).\n\nゲームID (`partygames games` で一覧)。")]
OptionList = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="KEY=VALUE", help="A game option as key=value (repeatable).\n\nゲームのオプション(key=value、繰り返し可)。")]


def _fail(message: Text, lang: Lang | None) -> None:
    """Prints `message` as an error, in `lang` (None: a command without --lang, in both), and exits with
    status 1."""
    text = message(lang) if lang else "\n".join((message.en, message.ja))
    err.print(f"[red]{text}[/]")
    raise typer.Exit(code=1)


def _refused(error: EngineError, lang: Lang) -> None:
    """Fails with an engine's refusal, in `lang`."""
    _fail(Text(error.en, error.ja), lang)


def _game(game_id: str, lang: Lang) -> Game:
    try:
        return games.get(game_id)
    except EngineError as error:
        _refused(error, lang)
        raise


def _seed(seed: int | None) -> int:
    """The seed asked for, or a fresh one (it is printed, so that the deal can be replayed)."""
    return secrets.randbelow(1_000_000) if seed is None else seed


def _win_rate_note(summary: dict[str, Any], lang: Lang = "en") -> str:
    """What a win rate is, and why the rates may add up to more than 100%."""
    per_match, shared, total = summary["winners_per_match"], summary["shared_wins"], summary["games"]
    if lang == "ja":
        note = ("勝率: ボットが受け持った席のうち、勝者に入った席の割合。1試合に勝者が複数いることがあり、"
                f"この実行では1試合あたり平均 {per_match:.2f} 席が勝ちました")
        if shared:
            note += (f"。{total:,} 試合のうち {shared:,} 試合は勝者が複数いた(チームの勝ち、または同点で勝ちを"
                     "分け合う)ため、勝率の合計は100%を超えることがあります")
        return note + "。"
    note = ("Win rate: the share of the seats a bot played that ended among the winners. A match can have "
            f"several winners; here {per_match:.2f} seats won per match on average")
    if shared:
        note += (f", and {shared:,} of {total:,} matches had more than one winner "
                 "(a winning team, or a tie shares the win), so the rates can add up to more than 100%")
    return note + "."


def _simulation_table(game: Game, summary: dict[str, Any], count: int, seed: int, lang: Lang) -> Table:
    """Per bot kind: seats played, mean score and win rate with their 95% intervals."""
    games_count = summary["games"]
    ja = lang == "ja"
    title = (f"{game.title.ja}: {games_count:,} 試合、{count} 席、シード {seed}" if ja
             else f"{game.title.en}: {games_count:,} games, {count} seats, seed {seed}")
    table = Table(title=title)
    columns = (("ボット", "受け持った席", "平均得点(95%信頼区間)", "勝率(95%信頼区間)") if ja
               else ("bot", "seats played", "mean score (95% CI)", "win rate (95% CI)"))
    for column in columns:
        table.add_column(column, overflow="fold")
    between = "〜" if ja else " to "
    for row in summary["bots"]:
        low, high = row["mean_score_ci95"]
        wl, wh = row["win_rate_ci95"]
        # The kind as --bots and --json name it (Japanese: its title, the same kind in Japanese words).
        table.add_row(game.bot_title(row["bot"]).ja if ja else row["bot"], f"{row['seats_played']:,}",
                      f"{row['mean_score']:,.2f} ({low:,.2f}{between}{high:,.2f})",
                      f"{row['win_rate']:.1%} ({wl:.1%}{between}{wh:.1%})")
    return table


def _check_save(path: Path | None, lang: Lang, folder: bool = False) -> None:
    """Fails at once, in words, where --save cannot write (before a match is played, not after)."""
    if path is None:
        return
    where = path if folder else path.parent
    try:
        where.mkdir(parents=True, exist_ok=True)
        writable = os.access(where, os.W_OK) and not (not folder and path.is_dir())
    except OSError:
        writable = False
    if not writable:
        _fail(Text(f"Cannot save to {path}: the folder {where} cannot be made or written to.",
                   f"{path} に保存できません: フォルダ {where} を作れないか、書き込めません。"), lang)


def _kind_name(game: Game, kind: str, lang: Lang) -> str:
    return game.bot_title(kind).ja if lang == "ja" else kind


def _seating_note(game: Game, summary: dict[str, Any], lang: Lang) -> str:
    """How the kinds took the seats, and on a team game how the teams were made of them."""
    kinds = summary["seating"]["kinds_in_turn"]
    order = ("、" if lang == "ja" else ", ").join(_kind_name(game, k, lang) for k in kinds)
    note = Text(f"Seats: the kinds take the seats in turn ({order}, then again), starting one seat further on "
                "each match, so that the kinds move round the table.",
                f"席の割り当て: 種類を席に順に割り当て({order}、以下繰り返し)、試合ごとに 1 席ずらして"
                "種類が席を順に回ります。")(lang)
    teams = summary.get("teams")
    if not teams:
        return note
    seats = ["、".join(map(str, t)) if lang == "ja" else ", ".join(map(str, t)) for t in teams]
    lineups = summary["team_lineups"]
    mixed = all(len(set(lineup["kinds"])) > 1 for lineup in lineups)
    if lang == "ja":
        note += f" チーム: 席 {' と席 '.join(seats)}(席は 0 から)。勝率は、その種類が入ったチームの勝ちの割合です。"
        if mixed:
            note += ("どのチームにも複数の種類が混ざっていたので、上の勝率では種類を比べられません。下のチーム構成ごとの表を"
                     "見るか、チームごとに 1 種類になるよう --bots を選んでください(例: 2 種類を交互に)。")
        return note
    note += (f" Teams: seats {' and seats '.join(seats)} (seats from 0). A kind's win rate is the share of its "
             "seats on a winning team.")
    if mixed:
        note += (" Every team mixed kinds, so the rates above do not compare the kinds: see the line-ups below, "
                 "or choose --bots so that each team is of one kind (e.g. two kinds, which alternate seats).")
    return note


def _lineup_table(game: Game, summary: dict[str, Any], lang: Lang) -> Table:
    """Per team line-up (the kinds in a team): how many teams had it and how often such a team won."""
    ja = lang == "ja"
    table = Table(title="チーム構成ごとの勝率" if ja else "Win rate per team line-up")
    for column in (("チーム構成", "チーム数", "勝率(95%信頼区間)") if ja else ("team line-up", "teams", "win rate (95% CI)")):
        table.add_column(column, overflow="fold")
    between = "〜" if ja else " to "
    for lineup in summary["team_lineups"]:
        counts = {kind: lineup["kinds"].count(kind) for kind in lineup["kinds"]}
        kinds = ("、" if ja else ", ").join(f"{_kind_name(game, k, lang)} ×{n}" for k, n in counts.items())
        low, high = wilson_interval(lineup["teams_won"], lineup["teams_played"])
        table.add_row(kinds, f"{lineup['teams_played']:,}", f"{lineup['win_rate']:.1%} ({low:.1%}{between}{high:.1%})")
    return table


def _options(pairs: list[str] | None, lang: Lang) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            _fail(Text(f"--option takes key=value, not {pair!r}.",
                       f"--option は key=value の形で指定します({pair!r} は使えません)。"), lang)
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def _table(game: Game, seats: int | None, options: dict[str, Any], seed: int, lang: Lang) -> tuple[int, dict[str, Any]]:
    """The seat count and options of a match: without --seats, the game's usual table; with it, the options
    that follow the seat count (`SEAT_FIELDS`, Smuggling's team size) are picked from it unless given. A
    count the options still refuse fails naming the options that would allow it (`-o gallery=0`)."""
    try:
        game.options_class.parse(options)  # an option the game refuses is told first
    except InvalidOptions as error:
        _refused(error, lang)
    if seats is None:
        return game.default_seat_count(options), options
    if seats not in game.seat_counts:  # no options allow it
        _fail(Text(f"{game.id} takes {_describe_counts(game.seat_counts)} seats, not {seats}.",
                   f"{game.id} の席数は {_describe_counts(game.seat_counts)} です({seats} は不可)。"), lang)
    fitted = game.fitted_options(seats, options)  # (the engine's: a room's next game fits its seats alike)
    try:
        game.new(seats, fitted, seed)
    except InvalidOptions as error:
        if seats in game.room_seat_counts(options):
            _refused(error, lang)  # not about the seat count
        changes = _changes_for(game, seats, options)
        allowed = _describe_counts(game.room_seat_counts(options))
        given = " ".join(f"-o {key}={json.dumps(value, ensure_ascii=False)}" for key, value in options.items()
                         if key not in game.virtual_clock_options)
        where = (f" with {given}", f"({given} では)") if given else ("", "")
        if not changes:
            _fail(Text(f"{game.id} takes {allowed} seats{where[0]}, not {seats}.",
                       f"{game.id} の席数は{where[1]} {allowed} です({seats} は不可)。"), lang)
        _fail(Text(f"{game.id} takes {allowed} seats{where[0]}, not {seats}. For {seats} seats, add "
                   f"{' or '.join(changes)}.",
                   f"{game.id} の席数は{where[1]} {allowed} です({seats} は不可)。{seats} 席で遊ぶには "
                   f"{' または '.join(changes)} を付けてください。"), lang)
    return seats, fitted


def _changes_for(game: Game, seats: int, options: dict[str, Any]) -> list[str]:
    """Up to three ways (`-o key=value`, one option, else two) that make `options` allow `seats`, among the
    whole-number options not given; the fewest changes first."""
    ranges: dict[str, range] = {}
    for name, field in game.options_class.describe().get("properties", {}).items():
        schema = next((f for f in field.get("anyOf", [field]) if f.get("type") == "integer"), None)
        if name in options or schema is None or "minimum" not in schema or "maximum" not in schema:
            continue
        if schema["maximum"] - schema["minimum"] <= 100:
            ranges[name] = range(schema["minimum"], schema["maximum"] + 1)

    def allows(change: dict[str, int]) -> bool:
        try:
            return seats in game.seat_counts_for({**options, **change})
        except EngineError:
            return False

    found = [f"-o {name}={value}" for name, values in ranges.items() for value in values if allows({name: value})]
    if not found:
        small = {name: values for name, values in ranges.items() if len(values) <= 40}
        found = [f"-o {a}={x} -o {b}={y}" for a, b in itertools.combinations(small, 2)
                 for x in small[a] for y in small[b] if allows({a: x, b: y})]
    return found[:3]


@app.command("games")
def list_games() -> None:
    """List the games with their seat counts and bots. ゲームの一覧(人数とボット)。"""
    table = Table(title="partygames", caption=f"{games.availability().en}\n{games.availability().ja}")
    for column in ("id", "English", "日本語", "seats / 人数", "bots"):
        table.add_column(column, overflow="fold")
    for game in games.all_games():
        counts = sorted(game.seat_counts)
        table.add_row(game.id, game.title.en, game.title.ja, f"{counts[0]}-{counts[-1]}", ", ".join(game.bots))
    Console(width=max(out.width, 110)).print(table)  # never fold titles, even when piped


@app.command("rules")
def rules(game_id: GameId, lang: LangOption = "en") -> None:
    """Show a game's rules summary and options. ルールの要約とオプションを表示。"""
    game = _game(game_id, lang)
    out.print(f"[bold]{game.title(lang)}[/]  ({game.id})")
    out.print(Prose(game.summary(lang), lang))
    schema = game.options_class.describe()
    heading = "オプション" if lang == "ja" else "Options"
    columns = (("名前", "name"), ("説明", "meaning"), ("指定できる値", "allowed"), ("既定値", "default"))
    table = Table(title=heading)
    for column in columns:
        table.add_column(column[0] if lang == "ja" else column[1], overflow="fold")
    # Where the table cannot give every Japanese cell its widest phrase (a title's parenthesised phrase is
    # one: "(トーテムポールから・メートル)"), each option is a few lines of its own, its words beside its name.
    stacked = Table.grid(padding=(0, 1))
    stacked.add_column(no_wrap=True)
    stacked.add_column()
    rows: list[tuple[RenderableType, ...]] = []
    for name, field in schema.get("properties", {}).items():
        cells = (Phrases(_title(field, name, lang), lang, whole=True), Phrases(_allowed_text(field, lang), lang),
                 Phrases(_default_text(field.get("default"), lang, field.get("value_titles")), lang))
        rows.append((name, *cells))
        table.add_row(name, *cells)
        stacked.add_row(f"[bold]{name}[/]", cells[0])
        for (ja, en), cell in zip(columns[2:], cells[1:], strict=True):
            stacked.add_row(f"  {ja if lang == 'ja' else en}:", cell)
    wide = out.options.update(width=10_000)
    if lang == "ja" and Measurement.get(out, wide, table).maximum > out.width:
        # Narrower than the table at ease: the titles' column is as wide as their widest phrase and the
        # others share the rest (Rich would narrow the widest column first, and cut a title's phrase;
        # English titles wrap between words as Rich lays them out).
        narrowest = [max(Measurement.get(out, wide, row[i]).minimum for row in rows) for i in range(len(columns))]
        if sum(narrowest) + 3 * len(columns) + 1 > out.width:
            out.print(f"[bold]{heading}[/]")
            out.print(stacked)
            return
        table.columns[1].width = narrowest[1]
    out.print(table)


def _title(field: dict[str, Any], name: str, lang: Lang) -> str:
    """An option's title in `lang` (its name where it has none)."""
    return str(field.get("title_ja", field.get("title", name)) if lang == "ja" else field.get("title", name))


def _allowed_text(field: dict[str, Any], lang: Lang) -> str:
    """The values an option takes, as typed with -o: each choice with its meaning, a range of whole numbers,
    yes or no; "or not set" where it may be left out."""
    ja = lang == "ja"
    kinds = field.get("anyOf", [field])
    unset = any(kind.get("type") == "null" for kind in kinds)
    parts = []
    for kind in kinds:
        if "enum" in kind:
            titles = field.get("value_titles", {})
            parts += [(f"{value}({titles[str(value)][lang]})" if ja else f"{value} ({titles[str(value)][lang]})")
                      if str(value) in titles else str(value) for value in kind["enum"]]
        elif kind.get("type") == "boolean":
            parts.append("yes / no(はい / いいえ)" if ja else "yes / no")
        elif kind.get("type") == "integer":
            low, high = kind.get("minimum"), kind.get("maximum")
            if low is not None and high is not None:
                parts.append(f"{low:,}〜{high:,}" if ja else f"{low:,}-{high:,}")
            elif low is not None:
                parts.append(f"{low:,} 以上の整数" if ja else f"a whole number from {low:,}")
            else:
                parts.append("整数" if ja else "a whole number")
        elif kind.get("type") == "number":
            parts.append(_number_range(kind, ja))
        elif kind.get("type") == "array":
            parts.append("カンマ区切りの一覧" if ja else "a comma-separated list")
        elif kind.get("type") == "string":
            parts.append("文字列" if ja else "text")
        elif kind.get("type") == "object":
            parts.append("JSON オブジェクト" if ja else "a JSON object")
    text = "\n".join(parts) if any("enum" in kind for kind in kinds) else ("、" if ja else ", ").join(parts)
    if unset:
        text += "(または指定なし)" if ja else " (or not set)"
    return text


def _number_range(kind: dict[str, Any], ja: bool) -> str:
    """A decimal option's range: "0.5-2.0", or with an open end "over 0, at most 0.5"."""
    low, high = kind.get("minimum"), kind.get("maximum")
    above, below = kind.get("exclusiveMinimum"), kind.get("exclusiveMaximum")
    if low is not None and high is not None:
        return f"{low}〜{high}" if ja else f"{low}-{high}"
    words = []
    if low is not None:
        words.append(f"{low} 以上" if ja else f"from {low}")
    if above is not None:
        words.append(f"{above} より大きく" if ja else f"over {above}")
    if high is not None:
        words.append(f"{high} 以下" if ja else f"at most {high}")
    if below is not None:
        words.append(f"{below} 未満" if ja else f"under {below}")
    if not words:
        return "数値" if ja else "a number"
    return (" ".join(words) + "の数値") if ja else "a number " + ", ".join(words)


def _default_text(value: Any, lang: Lang, titles: dict[str, dict[str, str]] | None = None) -> str:
    """An option's default as a user types it with -o (yes/no for a switch, a word without quotes, a list
    comma-separated), with its meaning in Japanese on a Japanese screen (`titles`: the choices' titles); an
    option left unset says so (its meaning says what happens then)."""
    if titles and lang == "ja" and str(value) in titles:  # its title's first words ("短め"; the rest: allowed)
        return f"{value}({titles[str(value)]['ja'].split(':')[0]})"
    if value is None:
        return "指定なし" if lang == "ja" else "not set"
    if isinstance(value, bool):
        return ("はい" if value else "いいえ") if lang == "ja" else ("yes" if value else "no")
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, list):
        return ", ".join(_default_text(v, lang) for v in value) or ("なし" if lang == "ja" else "none")
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_default_text(v, lang)}" for k, v in value.items()) or ("なし" if lang == "ja" else "none")
    return str(value)


@app.command("play")
def play(
    game_id: GameId,
    seats: Annotated[int | None, typer.Option(
        help="Number of seats (default: the game's usual table, else the smallest allowed).\n\n席数(既定: ゲームの標準の人数、なければ最小の人数)。")] = None,
    seed: Annotated[int | None, typer.Option(
        help="Seed of the match's random source (default: a fresh one, printed, to replay the deal).\n\n"
             "乱数のシード。既定: 新しく選んで表示(同じ配りをもう一度遊べます)。")] = None,
    lang: LangOption = "en",
    seat: Annotated[int, typer.Option(help="Your seat (0-based).\n\nあなたの席(0から)。")] = 0,
    bot: Annotated[str, typer.Option(help="Bot kind for the other seats.\n\nほかの席のボットの種類。")] = "heuristic",
    option: OptionList = None,
    save: Annotated[Path | None, typer.Option(help="Save the match log to this file.\n\n対戦ログをこのファイルに保存。")]
    = None,
    think_ms: Annotated[float, typer.Option(
        help="How long a search bot thinks per decision, in milliseconds (0 to 60000).\n\n"
             "探索ボットが 1手に考える時間(ミリ秒、 0〜60000)。",
        min=0, max=60_000, metavar="MS")] = THINK_MS,
) -> None:
    """Play one seat in the terminal against bots (you see only your seat's view). ターミナルでボットを相手に1席を遊ぶ(見えるのは自分の席の情報だけ)。"""
    game = _game(game_id, lang)
    options = {**game.virtual_clock_options, **_options(option, lang)}
    _check_save(save, lang)
    seed = _seed(seed)
    count, options = _table(game, seats, options, seed, lang)
    try:
        match = game.new(count, options, seed, bots=[s for s in range(count) if s != seat])
    except EngineError as error:
        _refused(error, lang)
        raise
    if not 0 <= seat < count:
        _fail(_seat_range(count), lang)
    if bot not in game.bots:
        _fail(Text(f"{game.id} has no bot {bot!r} (bots: {', '.join(game.bots)}).",
                   f"{game.id} にボット {bot!r} はありません(ボット: {', '.join(game.bots)})。"), lang)
    table, budget = TableInfo.of(game, match), Budget(ms=think_ms)
    bots = {s: game.make_bot(bot, s, seed=seed * 1000 + s, table=table, budget=budget) for s in range(count) if s != seat}
    out.print(f"[bold]{escape(_intro(game, seat, count, seed, lang))}[/]")
    tempo = _tempo_note(game)
    if tempo is not None:
        out.print(Phrases(tempo(lang), lang))
    session = Session(game, match, bots)
    try:
        finished = play_in_terminal(out, session, seat, lang, save)
    except KeyboardInterrupt:
        out.print()
        out.print(Text("Interrupted (Ctrl-C).", "中断しました(Ctrl-C)。")(lang), style="bold")
        if save is not None:
            save_log(save, session.log)
            out.print(Text(f"The match so far is saved to {save}: `partygames replay {save}` steps through it.",
                           f"ここまでの対戦を {save} に保存しました。`partygames replay {save}` で再生できます。")(lang),
                      soft_wrap=True)
        else:
            out.print(Text("Nothing was saved (--save FILE keeps a match, even one stopped like this).",
                           "保存はしていません(--save ファイル名を付けると、このように中断した対戦も保存されます)。")(lang))
        raise typer.Exit(code=130) from None
    if save is not None:
        save_log(save, session.log)
        out.print(f"{'保存しました' if lang == 'ja' else 'Saved'}: {save}", soft_wrap=True)
    if not finished:
        out.print("中断しました。" if lang == "ja" else "Stopped.")


def _intro(game: Game, seat: int, count: int, seed: int, lang: Lang) -> str:
    """Who the player is, against whom, and the seed that deals the match again."""
    others = [s for s in range(count) if s != seat]
    against = name_list(seat_names(count, others, lang, you=seat), others, lang)
    if lang == "ja":
        return (f"{game.title.ja}: あなたは席 {seat}、相手は{against}です({count} 人、シード {seed}。同じ配りで遊ぶには "
                f"--seed {seed})。q で終了。")
    return (f"{game.title.en}: you play seat {seat} of {count}, against {against} (seed {seed}: play this deal "
            f"again with --seed {seed}). Enter q to quit.")


def _tempo_note(game: Game) -> Text | None:
    """How a real-time game runs in the terminal, where the clock waits for the player."""
    if game.dynamics != Dynamics.REAL_TIME:
        return None
    if game.virtual_clock_options.get("tempo") == "rounds":
        return Text("This game runs in real time; in the terminal it is played in rounds: each round everyone "
                    "chooses a move, the moves play out together, and the game's clock moves on.",
                    "このゲームは本来リアルタイムで進みますが、ターミナルではラウンド制で遊びます。毎ラウンド全員が行動を選び、"
                    "それらが同時に実行されてから、ゲームの時計が進みます。")
    if getattr(game.terminal, "redraw_at", None) is not None:
        return Text("This game runs in real time; in the terminal its clock waits while you choose, except that "
                    "what the rules show for a set time (a peek) ends in real time.",
                    "このゲームは本来リアルタイムで進みますが、ターミナルではあなたが選ぶ間は時計が止まります。"
                    "ただし、ルールで表示時間が決まっているもの(覗き見)は実時間で終わります。")
    return Text("This game runs in real time; in the terminal its clock waits while you choose.",
                "このゲームは本来リアルタイムで進みますが、ターミナルではあなたが選ぶ間は時計が止まります。")


def _seat_range(count: int) -> Text:
    return Text(f"--seat must be between 0 and {count - 1}.", f"--seat は 0 から {count - 1} までです。")


@app.command("simulate")
def simulate(
    game_id: GameId,
    games_count: Annotated[int, typer.Option("--games", help="How many matches.\n\n試合数。", min=1,
                                             max=10_000_000)] = 100,
    seats: Annotated[int | None, typer.Option(
        help="Seats per match (default: the game's usual table, else the smallest allowed).\n\n1試合の席数(既定: ゲームの標準の人数、なければ最小の人数)。")] = None,
    bots: Annotated[str, typer.Option(
        help="Bot kinds, comma-separated; they cycle over the seats.\n\nボットの種類。カンマ区切りで、席に順に割り当てます。")]
    = "heuristic,random",
    seed: Annotated[int | None, typer.Option(
        help="Seed of the first match; match i uses seed + i (default: a fresh one, printed).\n\n"
             "最初の試合のシード。試合 i は seed + i を使います(既定: 新しく選んで表示)。")] = None,
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a machine-readable summary.\n\n機械可読な要約(JSON) を出力。")]
    = False,
    save: Annotated[Path | None, typer.Option(
        help="Save every match log into this folder.\n\n全試合の対戦ログをこのフォルダに保存。")] = None,
    workers: Annotated[int, typer.Option(
        help="Worker processes on this machine (same results as one).\n\nこのマシンのワーカープロセス数(結果は 1つの時と同じ)。",
        min=1, max=1024)] = 1,
    lang: LangOption = "en",
    ray: Annotated[str | None, typer.Option(
        "--ray", help="Run on a Ray cluster: its address, 'auto' (the cluster this machine is in) or 'local' "
                      "(a new one here); same results. Needs partygames\\[ray].\n\n"
                      "Ray クラスタで実行: アドレス、 'auto' (このマシンのクラスタ)、または 'local' "
                      "(ここに新しく起動)。結果は同じ。要 partygames\\[ray]。")] = None,
    search_simulations: Annotated[int, typer.Option(
        help="Simulations a search bot runs per decision (a count, not a time: the same seed gives the same "
             "results; 1 to 1000000).\n\n探索ボットが 1手に行うシミュレーションの回数(時間でなく回数なので、"
             "同じシードなら同じ結果。 1〜1000000)。",
        min=1, max=1_000_000, metavar="N")] = SEARCH_SIMULATIONS,
) -> None:
    """Simulate many seeded matches between bots; per bot: mean result and win rate with 95% intervals. ボット同士の対戦を多数シミュレーション。ボットごとの平均得点と勝率(95%信頼区間)。

    Match i uses seed `seed + i` whether it runs here, on --workers or on --ray, so the figures are the same.
    試合 i はどこで実行してもシード seed + i を使うので、 --workers でも --ray でも結果は同じです。"""
    game = _game(game_id, lang)
    options = {**game.virtual_clock_options, **_options(option, lang)}
    seed = _seed(seed)
    kinds = [k.strip() for k in bots.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in game.bots]
    if not kinds or unknown:
        _fail(Text(f"Unknown bot {', '.join(unknown) or '(none)'}; {game.id} has: {', '.join(game.bots)}.",
                   f"不明なボット: {'、'.join(unknown) or '(なし)'}。{game.id} のボット: {', '.join(game.bots)}。"),
              lang)
    count, options = _table(game, seats, options, seed, lang)
    _check_save(save, lang, folder=True)
    try:
        game.new(count, options, seed)  # validates seats and options before the long run
    except EngineError as error:
        _refused(error, lang)
        raise
    if as_json:
        tournament = run_simulation(game, games_count, count, kinds, seed, options, save, workers=workers,
                                    ray_address=ray, search_simulations=search_simulations)
        out.print_json(json.dumps(tournament.summary()))
        return
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeRemainingColumn(), console=err, transient=True) as progress:
        task = progress.add_task(game.id, total=games_count)
        tournament = run_simulation(game, games_count, count, kinds, seed, options, save,
                                    progress=lambda done: progress.update(task, completed=done),
                                    workers=workers, ray_address=ray, search_simulations=search_simulations)
    summary = tournament.summary()
    out.print(_simulation_table(game, summary, count, seed, lang))
    out.print(Phrases(_win_rate_note(summary, lang), lang))
    out.print(Phrases(_seating_note(game, summary, lang), lang))
    if summary.get("teams"):
        out.print(_lineup_table(game, summary, lang))
    speed = (f"{summary['games_per_second']:.1f} 試合/秒、{summary['actions_per_second']:.0f} 手/秒" if lang == "ja"
             else f"{summary['games_per_second']:.1f} games/s, {summary['actions_per_second']:.0f} actions/s")
    out.print(speed)


@app.command("replay")
def replay(
    path: Annotated[Path, typer.Argument(
        help="A saved match log (from play --save or simulate --save).\n\n保存した対戦ログ(play --save や simulate --save)。")],
    seat: Annotated[int | None, typer.Option(
        help="Show this seat's view (default: the public view).\n\nこの席から見た情報を表示(既定: 公開情報)。")] = None,
    lang: LangOption = "en",
    pause: Annotated[bool, typer.Option(help="Wait for Enter between steps.\n\n1手ごとに Enter を待つ。")] = False,
    views: Annotated[bool, typer.Option(
        help="Print the view after every step, not only the events.\n\n出来事だけでなく、毎手の後の盤面も表示。")] = False,
) -> None:
    """Replay a saved match step by step and check that it reproduces the stored final state. 保存した対戦を1手ずつ再生し、保存された最終状態を再現するか確かめる。"""
    try:
        log = load_log(path)
    except EngineError as error:
        _refused(error, lang)
        raise
    game = _game(log.game, lang)
    if seat is not None and not 0 <= seat < log.seats:
        _fail(_seat_range(log.seats), lang)
    steps: list[tuple[Entry, list[Event], dict[str, Any] | None]] = []
    before: list[dict[str, Any]] = []
    try:
        match = game.new(log.seats, log.options, log.seed, bots=log.bots)
        # The whole log first: what a seat is shown of another's action depends on how the match ended.
        session = Session(game, match, on_entry=lambda entry, events: steps.append(
            (entry, events, copy.deepcopy(match.view(seat)) if views else None)))
        for entry in log.entries:
            before.append(match.view(None))  # the public table each action chose from (a market slot's card)
            session.replay_entry(entry)
    except EngineError as error:
        _fail(Text(f"Step {len(steps) + 1} is refused: {error.en}", f"{len(steps) + 1} 手目が受け付けられません: {error.ja}"),
              lang)
        raise
    except (ValueError, KeyError, TypeError, AttributeError):  # a damaged entry the log's reader let through
        _fail(Text(f"Step {len(steps) + 1} cannot be replayed: the match log {path} is damaged.",
                   f"{len(steps) + 1} 手目を再生できません: 対戦ログ {path} が壊れています。"), lang)
        raise
    # A server's log sends the people's names HTML-escaped, as it sends every user-supplied string.
    people = {seat: html.unescape(name) for seat, name in enumerate(log.names)}
    for human in set(range(log.seats)) - set(log.bots) - {s for s, name in people.items() if name}:
        # A person the log does not name (a terminal player): one name in the lines and the tables alike.
        people[human] = Text(f"Human (seat {human})", f"人間(席{human})")(lang)
    names = seat_names(log.seats, log.bots, lang, people=people)
    for number, (entry, events, view) in enumerate(steps, 1):
        clock = f"{entry.at / 1000:.1f}s"
        shown = None if entry.seat is None or entry.action is None else match.shown_action(entry.seat, entry.action, seat)
        if entry.seat is None:
            out.print(f"[bold]{number}[/] {clock} {'時間経過' if lang == 'ja' else 'time passes'}")
        elif shown is not None:  # else an act this seat never learns of: its events alone, if it may see any
            who = names[entry.seat]
            said = action_text(game, shown, lang, before[number - 1], names)
            out.print(f"[bold]{number}[/] {clock} {escape(who)}: {escape(said)}")
        told = [event.to_json() for event in events if event.is_visible_to(seat)]
        for line in tell(game, told, lang, names, before[number - 1]):
            out.print(f"    • {escape(line)}")
        if view is not None:
            out.print(render_view(game, view, lang, names))
        if pause:
            try:
                input()
            except EOFError:
                pause = False
    result = match.result()
    if result is not None:
        out.print(render_result(game, result.to_json(), lang, seat, names))
    if log.final_state is not None:
        if not log.reproduces(match):
            _fail(Text("The replay does NOT reproduce the stored final state.",
                       "再生した結果が、保存された最終状態と一致しません。"), lang)
        out.print(f"[green]{Text('The replay reproduces the stored final state.', '再生した結果は、保存された最終状態と一致しました。')(lang)}[/]")


def _knob(name: str) -> Any:
    """A cluster setting's option (settings.KNOBS): seconds, its environment variable, its help in both
    languages (its range is checked when the server starts)."""
    knob = KNOBS[name]
    # The variable's name is not shown by Typer: the longest would be cut at 80 columns.
    return typer.Option(knob.option, help=f"{knob.en} Environment: PARTYGAMES_ and the name in capitals."
                        f"\n\n{knob.ja}環境変数: PARTYGAMES_ と名前の大文字。", envvar=knob.env,
                        metavar="COUNT" if knob.whole else "SECONDS",
                        show_default=False, show_envvar=False)


def _public_url_option(value: str | None) -> str | None:
    """`--public-url` checked: an http:// or https:// address with a host."""
    if value is None:
        return None
    from partygames.server.address import check_public_url

    try:
        return check_public_url(value)
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not an http:// or https:// address. / "
                                 f"{value!r} は http:// または https:// のアドレスではありません。") from None


def _trusted_proxies_option(value: str | None) -> str | None:
    """`--trust-proxy` checked: IP addresses or networks, comma-separated, or *."""
    if value is None:
        return None
    from partygames.server.address import check_trusted_proxies

    try:
        return ",".join(check_trusted_proxies(value))
    except ValueError as error:
        raise typer.BadParameter(f"{error}. / {value!r} に IP アドレスでもネットワークでもない項目があります。") from None


app.command("review")(review_command)


@app.command("serve")
def serve(
    host: Annotated[str, typer.Option(
        help="Address to bind (0.0.0.0 to let phones on your network in).\n\n"
             "待ち受けるアドレス(0.0.0.0: 同じネットワークのスマホも参加可)。")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.\n\nポート番号。")] = 8000,
    public_url: Annotated[str | None, typer.Option(
        help="The address people open, used in share links and QR codes (e.g. https://games.example behind a "
             "proxy). Default: the bound address; with 0.0.0.0, this machine's LAN address.\n\n"
             "参加者が開くアドレス(共有リンクと QR コードに使用。例: プロキシの後ろなら https://games.example)。"
             "既定: 待ち受けるアドレス。 0.0.0.0 なら、このマシンの LAN アドレス。", callback=_public_url_option,
        metavar="URL", envvar="PARTYGAMES_PUBLIC_URL")] = None,
    allow_origin: Annotated[list[str] | None, typer.Option(
        help="A web page origin besides this server's own address that may open its WebSockets (repeatable; "
             "* allows any).\n\nこのサーバー以外で WebSocket を開いてよいページのオリジン(複数可。 * ならすべて)。",
        metavar="ORIGIN")] = None,
    trust_proxy: Annotated[str | None, typer.Option(
        help="The proxies whose X-Forwarded-For header names the client (comma-separated IP addresses or "
             "networks; * trusts any sender). Behind a proxy that reaches this process from another address "
             "than 127.0.0.1, give its address, or every client counts as one for the per-address limits. "
             "Default: 127.0.0.1,::1.\n\n"
             "X-Forwarded-For でクライアントを伝えてよいプロキシ。IP アドレスかネットワークを"
             "カンマ区切りで(* ならすべて)。127.0.0.1 以外から接続するプロキシの後ろでは、その"
             "アドレスを指定してください。さもないと全員がアドレスごとの制限を共有します。"
             "既定: 127.0.0.1,::1。",
        callback=_trusted_proxies_option, metavar="ADDRESSES",
        envvar=["PARTYGAMES_TRUST_PROXY", "FORWARDED_ALLOW_IPS"])] = None,
    database_url: Annotated[str | None, typer.Option(
        help="SQLAlchemy URL (default: SQLite in the data folder); postgresql://... for PostgreSQL, which any "
             "number of processes can serve together.\n\n"
             "SQLAlchemy の URL (既定: データフォルダの SQLite)。 PostgreSQL なら postgresql://... "
             "(いくつものプロセスで一緒に提供できます)。", envvar="PARTYGAMES_DATABASE_URL")] = None,
    data_dir: Annotated[Path | None, typer.Option(
        help="This process's folder: the SQLite database and its node id among the processes (default: your "
             "user data folder).\n\nこのプロセスのフォルダ: SQLite のデータベースと、プロセス間でのノード ID "
             "(既定: ユーザーデータフォルダ)。", envvar="PARTYGAMES_DATA_DIR", file_okay=False)] = None,
    json_logs: Annotated[bool, typer.Option(
        "--json-logs",
        help="Log one JSON object per line (for log collectors).\n\nログを 1 行 1 つの JSON で出力(ログ収集用)。",
        envvar="PARTYGAMES_JSON_LOGS")] = False,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot thinks before acting.\n\nボットが行動する前に考える秒数。")]
    = DEFAULT_BOT_DELAY,
    bot_pace: Annotated[float, typer.Option(
        help="In real-time play (Pandemic, a Musical Chairs race): seconds each bot waits after its own "
             "action before the next, so that people can keep up.\n\nリアルタイムの対戦でボットが次の行動まで待つ秒数。", min=0, metavar="SECONDS")] = DEFAULT_BOT_PACE,
    reveal_scale: Annotated[float, typer.Option(
        help="Multiplies how long the server waits for each reveal (a die roll, a card flip) before bots act "
             "and time limits run; 0: no waiting.\n\n演出を待つ時間の倍率(0: 待たない)。")] = 1.0,
    lease_seconds: Annotated[float | None, _knob("lease_seconds")] = None,
    sweep_seconds: Annotated[float | None, _knob("sweep_seconds")] = None,
    follower_idle_seconds: Annotated[float | None, _knob("follower_idle_seconds")] = None,
    finished_retention: Annotated[float | None, _knob("finished_retention")] = None,
    abandon_seconds: Annotated[float | None, _knob("abandon_seconds")] = None,
    review_workers: Annotated[int | None, _knob("review_workers")] = None,
) -> None:
    """Start the web platform (lobby, rooms, live play in the browser). Webプラットフォームを起動(ロビー、部屋、ブラウザでの対戦)。"""
    try:
        server = importlib.import_module("partygames.server.main")
    except ModuleNotFoundError:
        _fail(Text("The web platform is not installed in this build.",
                   "このビルドには Web プラットフォームが入っていません。"), None)
        raise
    knobs = {name: value for name, value in (
        ("lease_seconds", lease_seconds), ("sweep_seconds", sweep_seconds),
        ("follower_idle_seconds", follower_idle_seconds), ("finished_retention", finished_retention),
        ("abandon_seconds", abandon_seconds), ("review_workers", review_workers)) if value is not None}  # (the others: Settings' defaults)
    server.serve(**knobs, host=host, port=port, database_url=database_url, bot_delay=bot_delay, data_dir=data_dir,
                 reveal_scale=reveal_scale, bot_pace=bot_pace, public=public_url,
                 allowed_origins=tuple(allow_origin or ()), json_logs=json_logs,
                 **({} if trust_proxy is None else {"trusted_proxies": tuple(trust_proxy.split(","))}))


@db_app.command("upgrade")
def db_upgrade(
    database_url: DatabaseUrlOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Bring the database's tables to this version (what `serve` also does when it starts; safe while other
    processes serve PostgreSQL). データベースのテーブルをこの版に更新(serve も起動時に行います)。"""
    from alembic.util.exc import CommandError as AlembicError
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from partygames.server import migrations
    from partygames.server.dblock import DatabaseInUse, lock_sqlite
    from partygames.server.settings import Settings
    from partygames.server.storage import Storage

    settings = Settings.create(database_url, data_dir)
    handle = None
    try:
        handle = lock_sqlite(settings.database_url) if settings.database_url.startswith("sqlite") else None
    except DatabaseInUse as error:
        _fail(Text(error.en, error.ja), None)
    try:
        storage = Storage(settings.database_url)  # upgrades, in one transaction under the upgrade lock
        with storage.engine.connect() as conn:
            revision = migrations.current(conn)
        storage.close()
    except (SQLAlchemyError, AlembicError) as error:  # one line, not the driver's traceback
        from partygames.server.main import reason

        shown = make_url(settings.database_url).render_as_string(hide_password=True)
        _fail(Text(f"The database {shown} could not be upgraded: {reason(error)}",
                   f"データベース {shown} を更新できませんでした: {reason(error)}"), None)
    if handle is not None:
        handle.close()
    message = Text(f"The database is at revision {revision} (the newest).", f"データベースは最新のリビジョン {revision} です。")
    out.print(f"{message.en}\n{message.ja}")


def _mount_game_commands() -> None:
    """Mounts each game's declared commands as `partygames analyze|odds <game>`."""
    groups = {"analyze": analyze_app, "odds": odds_app}
    for game in games.all_games():
        for group, command in game.commands.items():
            groups[group].command(game.id)(command)


_mount_game_commands()


def main() -> None:  # pragma: no cover - console script entry
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
