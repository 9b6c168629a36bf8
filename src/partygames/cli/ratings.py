"""`partygames ratings <game>`: a game's leaderboard from the server's database; `partygames ratings rebuild`
recomputes every rating from the stored matches (server/ratings.py)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from partygames import games
from partygames.cli.bilingual import DatabaseUrlOption, DataDirOption, LangOption, titled_table
from partygames.engine.text import Text

REBUILD = "rebuild"


def ratings_command(
    target: Annotated[str, typer.Argument(
        help="A game id for its leaderboard, or `rebuild` to recompute every rating from the stored matches.\n\n"
             "ゲーム ID(そのランキングを表示)、または rebuild (保存されたマッチから全レーティングを再計算)。")],
    database_url: DatabaseUrlOption = None,
    data_dir: DataDirOption = None,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="Rows to show. 表示する行数。")] = 20,
    lang: LangOption = "en",
) -> None:
    """A game's leaderboard (conservative rating mu - 3 sigma), or `rebuild`. ゲームのレーティング順位表、または再計算。"""
    from partygames.server import ratings
    from partygames.server.settings import Settings
    from partygames.server.storage import Storage

    out, err = Console(), Console(stderr=True)
    known = {g.id: g for g in games.all_games()}
    if target != REBUILD and target not in known:
        message = Text(f"No game {target!r} (games: {', '.join(known)}).",
                       f"ゲーム「{target}」はありません(あるゲーム: {', '.join(known)})。")
        err.print(f"[red]{escape(message(lang))}[/]")
        raise typer.Exit(code=1)
    storage = Storage(Settings.create(database_url, data_dir).database_url)
    try:
        if target == REBUILD:
            count = ratings.rebuild(storage, known)
            out.print(Text(f"Ratings recomputed from {count} stored matches.",
                           f"保存された {count} マッチからレーティングを再計算しました。")(lang))
            return
        ratings.rate_pending(storage, known)
        rows = ratings.leaderboard(storage, target, limit)
    finally:
        storage.close()
    table = titled_table(Text(f"Ratings: {known[target].title.en}", f"レーティング: {known[target].title.ja}"), lang)
    for column in (Text("#", "順位"), Text("Player", "プレイヤー"), Text("Rating", "レーティング"),
                   Text("Rated matches", "対象マッチ")):
        table.add_column(column(lang), justify="left" if column.en == "Player" else "right")
    provisional = Text("(provisional)", "(暫定)")(lang)
    for row in rows:
        shown = f"{row['rating']:.1f}" + (f" {provisional}" if row["provisional"] else "")
        table.add_row(str(row["place"]), escape(row["name"] or row["profile"]), shown, str(row["matches"]))
    out.print(table)
    if not rows:
        out.print(Text("No rated matches yet.", "レーティング対象のマッチはまだありません。")(lang))
    out.print(Text(f"Provisional: fewer than {ratings.PROVISIONAL_BELOW} rated matches.",
                   f"暫定: 対象マッチが {ratings.PROVISIONAL_BELOW} 未満。")(lang))
