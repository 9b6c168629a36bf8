"""`partygames analyze lucky-nine`: the value of continuing, the optimal stop rule, the house edge."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from partygames.cli.bilingual import LangOption, plot_saved, plot_target, progress
from partygames.cli.prose import Phrases
from partygames.engine.text import Lang, Text
from partygames.games.lucky_nine.analysis import plot, solver
from partygames.games.lucky_nine.montecarlo import VARIANTS, house_edge
from partygames.games.lucky_nine.options import LuckyNineOptions

MAX_LIT = 8

_STOP_RULE_EXACT = Text(
    "Optimal stop rule (exact, every stake): continue exactly when the next press alone gains on "
    "average, i.e. when k*s + D > 2*(8-k)*s with diamonds in the diamond chest (D > (16-3k)*s), "
    "and when k >= 7 with an empty diamond chest; otherwise pass (k: lit chests besides the diamond "
    "chest, D: diamonds in it, s: stake). Looking further ahead never changes the decision.",
    "最適停止ルール(厳密、どの賭け金でも): もう1回押すだけで平均して得になるときに限り続行します。"
    "つまり、ダイヤチェストにダイヤがあれば k*s + D > 2*(8-k)*s(D > (16-3k)*s)のとき、"
    "ダイヤチェストが空なら k >= 7 のときに続行し、それ以外はパスします"
    "(k: ダイヤチェスト以外の点灯チェストの数、D: ダイヤチェストのダイヤの数、s: 賭け金)。"
    "もっと先まで読んでも判断は変わりません。")
_STOP_RULE_TABLE = Text("Optimal stop rule: continue exactly when the table above says so.",
                        "最適停止ルール: 上の表が続行を示すときに限り続行します。")
_BAD_SIZE = Text("--seats must be 2-20 and --games at least 1.",
                 "--seats は2〜20、--games は1以上にしてください。")
_MONTE_CARLO = Text("Monte Carlo", "モンテカルロ")
_CONT_TITLE = Text("Expected gain of continuing (pressing again, then stopping optimally) vs passing (0), "
                   "diamond chest empty; exact",
                   "続行の期待値(もう1回押し、以後は最適に止める。パスは0)\u3000ダイヤチェストが空、厳密値")
_THRESHOLD_TITLE = Text("Optimal stop rule: continue when the diamond chest holds at least this many diamonds",
                        "最適停止ルール: ダイヤチェストのダイヤがこの数以上なら続行")
_LIT = Text("lit chests k", "点灯数 k")
_STAKE = Text("stake {stake}", "賭け金 {stake}")
_TURN_MODEL_NOTE = Text("The turn model counts this turn's diamonds only; see `docs/rules/lucky-nine.md`.",
                        "手番のモデルは、この手番で動くダイヤだけを数えます。詳しくは `docs/rules/lucky-nine.md` を参照。")
_POLICIES = {"heuristic": Text("heuristic", "ヒューリスティック"),
             "never drop out": Text("never drop out", "ドロップアウトしない")}
_EDGE_TITLE = Text("House edge by variant, Monte Carlo ({games} games of {seats} players, every seat on the "
                   "{policy} policy; 95% intervals)",
                   "変則ルール別の主催者の取り分\u3000"
                   "モンテカルロ({seats}人で{games}試合、全席「{policy}」、95%区間)")
_EDGE_HEADS = (Text("variant", "変則ルール"), Text("house net / game", "主催者の収支(1試合あたり)"),
               Text("paid on misses / game", "ハズレでの投入(1試合あたり)"),
               Text("edge (net / paid)", "取り分(収支 ÷ 投入)"))
_VARIANT_NAMES = {"none": Text("none", "なし"),
                  "a: triple diamond": Text("a: triple diamond", "a・トリプルダイヤ"),
                  "b: sweep bonus": Text("b: sweep bonus", "b・総取りボーナス"),
                  "c: no repeat": Text("c: no repeat", "c・連続出目なし"),
                  "d: chain bonus": Text("d: chain bonus", "d・チェーンボーナス")}
_ESTIMATE_NOTE = Text(
    "A whole game (all holdings, nine chests, turn order) is too large to solve exactly, so the "
    "house edge is estimated; the turn values above are exact.",
    "ゲーム全体(全員の手持ち、9つのチェスト、手番の順番)は大きすぎて厳密には解けないため、"
    "主催者の取り分は推定値です。上の手番の値は厳密値です。")


def turn_tables(stakes: tuple[int, ...]) -> dict[str, Any]:
    """Continue values with an empty diamond chest and the diamond-chest thresholds, per stake and k."""
    cont: dict[str, dict[str, str]] = {}
    threshold: dict[str, dict[str, int | None]] = {}
    for stake in stakes:
        solve = solver(stake)
        # k = 0 with an empty diamond chest never occurs at a decision (special rule a refills).
        cont[str(stake)] = {str(k): str(solve.cont(k, 0)) for k in range(1, MAX_LIT + 1)}
        threshold[str(stake)] = {str(k): solve.threshold(k) for k in range(MAX_LIT + 1)}
    return {"continue_value_empty_diamond_chest": cont, "pass_value": "0",
            "continue_if_diamond_chest_at_least": threshold}


def myopic_continue(k: int, d: int, stake: int) -> bool:
    """The one-step rule: continue when the next press alone gains on average,
    k*s + D > 2*(8-k)*s, plus 2s more at stake when the diamond chest is empty."""
    gain = k * stake + d - 2 * (MAX_LIT - k) * stake
    return gain > (0 if d > 0 else 2 * stake)


def myopic_rule_is_optimal(stake: int, max_diamonds: int = 200) -> bool:
    """Whether the exact optimal decision equals the one-step rule for every k and D up to a bound."""
    solve = solver(stake)
    return all(solve.should_continue(k, d) == myopic_continue(k, d, stake)
               for k in range(MAX_LIT + 1) for d in range(max_diamonds + 1) if k or d)


def stop_rule_text(stakes: tuple[int, ...], lang: Lang = "en") -> str:
    """The optimal stop rule in words, checked against the exact tables."""
    if all(myopic_rule_is_optimal(s) for s in stakes):
        return _STOP_RULE_EXACT(lang)
    return _STOP_RULE_TABLE(lang)


def _fmt(value: Fraction) -> str:
    text = f"{float(value):+.3f}"
    return text if value.denominator == 1 else f"{text} ({value})"


def _variant(name: str, lang: Lang) -> str:
    known = _VARIANT_NAMES.get(name)
    return name if known is None else known(lang)


def analyze(
    games: Annotated[int, typer.Option(
        help="Monte Carlo games per variant and policy. 変則ルールと方針ごとのモンテカルロの試合数。")] = 2000,
    seats: Annotated[int, typer.Option(help="Players in the Monte Carlo games (2-20). モンテカルロの試合の人数(2〜20)。")]
    = 6,
    seed: Annotated[int, typer.Option(help="First seed of the Monte Carlo games. モンテカルロの最初の試合のシード。")]
    = 0,
    plot_path: Annotated[Path | None, typer.Option("--plot", help=(
        "Save a PNG plot (in English) of the continue values and the house edge here (default: "
        "lucky-nine.png in your user data folder; the path is printed).\n\n続行の値と主催者の取り分のグラフ"
        "(PNG、英語表記)の保存先(既定: ユーザーデータフォルダの lucky-nine.png。保存先を表示します)。"))] = None,
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not save the plot. グラフを保存しない。")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON. 機械可読なJSONで出力。")]
    = False,
    lang: LangOption = "en",
) -> None:
    """The optimal stop rule and the house edge. 最適停止ルールと主催者の取り分。

    The exact value of continuing vs passing per lit chests and stake, the optimal stop rule, and the house edge by variant by Monte Carlo (default options: 5 rounds, stakes 1-2-4-6-9).

    点灯チェスト数と賭け金ごとの続行とパスの厳密な値、最適停止ルール、モンテカルロで求める変則ルール別の主催者の取り分(既定のオプション: 5ラウンド、賭け金1・2・4・6・9)。
    """
    console = Console()
    if not 2 <= seats <= 20 or games < 1:
        Console(stderr=True).print(f"[red]{_BAD_SIZE(lang)}[/]")
        raise typer.Exit(code=1)
    stakes = LuckyNineOptions().stakes
    tables = turn_tables(stakes)
    edges: dict[str, dict[str, Any]] = {}
    with progress(_MONTE_CARLO, games * len(VARIANTS) * 2, lang) as advance:
        for policy, drop in (("heuristic", True), ("never drop out", False)):
            edges[policy] = {name: house_edge(seats, opts, games, seed, drop, advance).to_json()
                             for name, opts in VARIANTS.items()}
    path = plot_target(plot_path, no_plot, "lucky-nine.png")
    if path is not None:
        plot(stakes, edges, path)
    if as_json:
        # The JSON stays in English whatever --lang says: it is for programs.
        console.print_json(json.dumps({"stakes": list(stakes), **tables, "stop_rule": stop_rule_text(stakes),
                                       "house_edge": {"seats": seats, "games": games, "by_policy": edges},
                                       "plot": None if path is None else str(path)}))
        return
    cont = Table(title=_CONT_TITLE(lang))
    cont.add_column(Phrases(_LIT(lang), lang))
    for s in stakes:
        cont.add_column(_STAKE(lang).format(stake=s), justify="right", overflow="fold")
    for k in range(1, MAX_LIT + 1):
        values = [solver(s).cont(k, 0) for s in stakes]
        cont.add_row(str(k), *[("[green]" if v > 0 else "") + _fmt(v) for v in values])
    console.print(cont)
    thr = Table(title=_THRESHOLD_TITLE(lang))
    thr.add_column(Phrases(_LIT(lang), lang))
    for s in stakes:
        thr.add_column(_STAKE(lang).format(stake=s), justify="right", overflow="fold")
    for k in range(MAX_LIT + 1):
        thr.add_row(str(k), *[str(solver(s).threshold(k)) for s in stakes])
    console.print(thr)
    console.print(Phrases(stop_rule_text(stakes, lang), lang))
    console.print(Phrases(_TURN_MODEL_NOTE(lang), lang))
    for policy, rows in edges.items():
        table = Table(title=_EDGE_TITLE(lang).format(games=games, seats=seats, policy=_POLICIES[policy](lang)))
        # The variant's name is never folded: the intervals make room for it.
        table.add_column(Phrases(_EDGE_HEADS[0](lang), lang), justify="right", no_wrap=True)
        for head in _EDGE_HEADS[1:]:
            table.add_column(Phrases(head(lang), lang), justify="right")
        for name, e in rows.items():
            lo, hi = e["house_net_ci95"]
            elo, ehi = e["edge_ci95"]
            table.add_row(_variant(name, lang), f"{e['house_net_per_game']:+.2f} [{lo:+.2f}, {hi:+.2f}]",
                          f"{e['paid_on_misses_per_game']:.1f}",
                          f"{100 * e['edge']:+.2f}% [{100 * elo:+.2f}%, {100 * ehi:+.2f}%]")
        console.print(table)
    console.print(Phrases(_ESTIMATE_NOTE(lang), lang))
    if path is not None:
        console.print(plot_saved(path, lang), soft_wrap=True)
