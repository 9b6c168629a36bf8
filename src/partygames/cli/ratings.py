"""`partygames ratings <game> [--group NAME]`: a game's leaderboard from the server's database (of a group's
members with `--group`); `partygames ratings rebuild` recomputes every rating from the stored matches
(server/ratings.py)."""

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
    group: Annotated[str | None, typer.Option(
        help="Only this group's members (its name or id). このグループのメンバーだけ(名前または ID)。")] = None,
    lang: LangOption = "en",
) -> None:
    """A game's leaderboard (conservative rating mu - 3 sigma), or `rebuild`. ゲームのレーティング順位表、または再計算。"""
    from partygames.server import groups, ratings
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
        title = known[target].title
        if group is None:
            rows = ratings.leaderboard(storage, target, limit)
            heading = Text(f"Ratings: {title.en}", f"レーティング: {title.ja}")
        else:
            found = groups.find_group(storage, group)
            if len(found) != 1:
                message = (Text(f"No group named {group!r} (a name or id).", f"「{group}」という名前・ID のグループはありません。")
                           if not found else Text(f"{len(found)} groups are named {group!r}: give the id "
                                                  f"({', '.join(g['id'] for g in found)}).",
                                                  f"「{group}」という名前のグループが {len(found)} つあります。ID を指定してください"
                                                  f"({', '.join(g['id'] for g in found)})。"))
                err.print(f"[red]{escape(message(lang))}[/]")
                raise typer.Exit(code=1)
            rows = groups.terminal_leaderboard(storage, found[0]["id"], target)[:limit]
            name = escape(found[0]["name"])
            heading = Text(f"Ratings: {title.en}, {name}", f"レーティング: {title.ja}・{name}")
    finally:
        storage.close()
    table = titled_table(heading, lang)
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
