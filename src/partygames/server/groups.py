"""Groups: people who play together ("Friday table"), their standings and the evening's scoreboard (issue #30).

Anyone with a profile makes a group; others join it by its invite link, `<public URL>/g/<id>/join#<token>`:
the token (32 random bytes) is in the fragment, which browsers never send to a server, and only its SHA-256 is
stored. The link works for anyone, any number of times, until the group's maker renews it (the old one then
gets `group/invite_invalid`). A member may leave; the maker may remove a member. When the maker leaves (or
deletes their profile) the earliest member left becomes the maker.

Which matches are the group's: a room may be made for a group (`group` in `POST /api/rooms`, by a member);
every match of that room is the group's, so a series' next match or a rematch in the same room stays the
group's. The room's big screen and phones ask `GET /api/rooms/{code}/group` and show the group's name.

Points come from placings: a seat scores 1 for every seat of the match it finished ahead of and 1/2 for every
seat it tied with (a match of n seats hands out n(n-1)/2 points; bots and guests take their share too, but
only members are on the scoreboard). Tonight is the group's latest evening: its matches back from the newest
one, until a gap of 6 hours without a match (`EVENING_GAP`); `current` says whether the newest ended within
the last 6 hours.

Who sees what: a group's page (members, standings, tonight) is for its members only; to anyone else the group
does not exist (`group/not_found`), except that a holder of its invite link sees its name and member count
before joining. A profile whose visibility is "members" shows its matches to the members of its groups
(profiles.page).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, StringConstraints
from sqlalchemy import Column, Connection, Float, String, Table, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from partygames.server import ratings
from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.hub import Hub
from partygames.server.profiles import (
    COOKIE,
    by_secret,
    profiles,
    require_same_site,
    secret_hash,
    unknown_profile,
)
from partygames.server.ratelimit import ClientBuckets
from partygames.server.settings import Settings
from partygames.server.storage import Storage, matches, metadata, rooms, seats
from partygames.server.text import clean_name

GROUP_NAME_MAX = 40
MEMBERS_MAX = 100
EVENING_GAP = 6 * 3600.0  # seconds without a match that end an evening
JOIN_RATE, JOIN_BURST = 10 / 60, 10  # wrong invite tokens per client address: 10, then one every 6 s
FORMULA = {"en": "Each match: a seat scores 1 point for every seat it finished ahead of and ½ for every seat "
                 "it tied with (4 seats: 3, 2, 1, 0).",
           "ja": "各マッチで、自分より下の順位の席1つにつき1点、同順位の席1つにつき½点(4席なら 3・2・1・0 点)。"}

groups = Table(
    "groups", metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("maker", String(24), nullable=True),  # may have left: the earliest member is the maker then
    Column("invite_hash", String(64), nullable=False, unique=True),  # SHA-256 of the invite link's token
    Column("created_at", Float, nullable=False),
)

group_members = Table(
    "group_members", metadata,  # (ON DELETE CASCADE on both keys in the migration)
    Column("group", String(24), primary_key=True),
    Column("profile", String(24), primary_key=True),  # index group_members_by_profile
    Column("joined_at", Float, nullable=False),
)

group_rooms = Table(
    "group_rooms", metadata,  # the rooms made for a group: all their matches are the group's
    Column("room", String(12), primary_key=True),
    Column("group", String(24), nullable=False),  # index group_rooms_by_group
)


class NewGroup(BaseModel):
    """`POST /api/groups`."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: Annotated[str, StringConstraints(max_length=10_000)]


class Invitation(BaseModel):
    """`POST /api/groups/{id}/invitation` and `/join`: the token from an invite link's fragment."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: Annotated[str, StringConstraints(max_length=200)]


def not_found(group_id: str) -> ServerError:
    return ServerError(Code.GROUP_NOT_FOUND, f"No group {group_id[:24]!r} that you are in.",
                       f"あなたが参加しているグループ「{group_id[:24]}」はありません。", 404)


def invite_invalid() -> ServerError:
    return ServerError(Code.GROUP_INVITE_INVALID, "This invite link is not (or no longer) this group's: ask a member "
                       "for the current one.", "この招待リンクは無効です(作成者が更新した可能性があります)。"
                       "メンバーに現在のリンクを聞いてください。", 410)


def not_maker() -> ServerError:
    return ServerError(Code.GROUP_NOT_MAKER, "Only the group's maker may do that.",
                       "それができるのはグループの作成者だけです。", 403)


def clean_group_name(name: str) -> str:
    return clean_name(name, GROUP_NAME_MAX)


# -- arithmetic ----------------------------------------------------------------------------------------------
def points(ranks: Mapping[int, int]) -> dict[int, float]:
    """Seat -> points of one match from its ranks (1 best; ties share a rank): 1 for each seat finished ahead of,
    1/2 for each seat tied with."""
    return {seat: sum(1.0 if other > rank else 0.5 if other == rank else 0.0
                      for s, other in ranks.items() if s != seat) for seat, rank in ranks.items()}


def evening(found: Sequence[dict[str, Any]], now: float) -> tuple[list[dict[str, Any]], bool]:
    """The latest evening of `found` (matches in the order they ended): back from the newest, until a gap of
    EVENING_GAP between one match's end and the next one's start; and whether it is still going on."""
    if not found:
        return [], False
    start = len(found) - 1
    while start > 0 and found[start]["started_at"] - found[start - 1]["ended_at"] < EVENING_GAP:
        start -= 1
    return list(found[start:]), now - found[-1]["ended_at"] < EVENING_GAP


def standings(found: Sequence[dict[str, Any]], members: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per member over `found`: matches, wins, average placing and points; most points first, then most wins,
    members who never played last."""
    table = {m["profile"]: {"profile": m["profile"], "name": m["name"], "colour": m["colour"], "matches": 0,
                            "wins": 0, "placings": 0, "points": 0.0} for m in members}
    for match in found:
        for seat in match["seats"]:
            row = table.get(seat["profile"])
            if row is None:
                continue
            row["matches"] += 1
            row["wins"] += bool(seat["won"])
            row["placings"] += seat["rank"]
            row["points"] += seat["points"]
    out = []
    for row in table.values():
        placings = row.pop("placings")
        out.append({**row, "average_placing": round(placings / row["matches"], 2) if row["matches"] else None})
    return sorted(out, key=lambda r: (-r["points"], -r["wins"], not r["matches"], r["name"] or "", r["profile"]))


def scoreboard(tonight: Sequence[dict[str, Any]], members: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Tonight's running scoreboard: per member who played, their points in each of tonight's matches (None:
    not at that table) and the total, most points first."""
    rows = []
    for member in members:
        by_match = [next((s["points"] for s in m["seats"] if s["profile"] == member["profile"]), None)
                    for m in tonight]
        if any(p is not None for p in by_match):
            rows.append({"profile": member["profile"], "name": member["name"], "colour": member["colour"],
                         "by_match": by_match, "total": sum(p for p in by_match if p is not None),
                         "wins": sum(bool(s["won"]) for m in tonight for s in m["seats"]
                                     if s["profile"] == member["profile"])})
    return sorted(rows, key=lambda r: (-r["total"], -r["wins"], r["name"] or "", r["profile"]))


# -- storage (synchronous: the routes call these in worker threads) -----------------------------------------
def _group(conn: Connection, group_id: str) -> dict[str, Any] | None:
    row = conn.execute(select(groups).where(groups.c.id == group_id[:24])).mappings().first()
    return dict(row) if row is not None else None


def members_of(conn: Connection, group_id: str) -> list[dict[str, Any]]:
    """The members, earliest first, with their names and colours."""
    rows = conn.execute(select(group_members.c.profile, group_members.c.joined_at, profiles.c.name, profiles.c.colour)
                        .join(profiles, profiles.c.id == group_members.c.profile)
                        .where(group_members.c.group == group_id)
                        .order_by(group_members.c.joined_at, group_members.c.profile)).mappings()
    return [dict(r) for r in rows]


def maker_of(group: Mapping[str, Any], members: Sequence[Mapping[str, Any]]) -> str | None:
    """The maker, or when they left, the earliest member left."""
    ids = [m["profile"] for m in members]
    return group["maker"] if group["maker"] in ids else (ids[0] if ids else None)


def is_member(conn: Connection, group_id: str, profile_id: str) -> bool:
    return conn.execute(select(group_members.c.profile).where(
        group_members.c.group == group_id[:24], group_members.c.profile == profile_id)).first() is not None


def share_a_group(conn: Connection, one: str, other: str) -> bool:
    """Whether two profiles are members of one group (profiles.page: "members" visibility)."""
    mine, theirs = group_members.alias("mine"), group_members.alias("theirs")
    return conn.execute(select(mine.c.group).join(theirs, theirs.c.group == mine.c.group)
                        .where(mine.c.profile == one, theirs.c.profile == other).limit(1)).first() is not None


def of_profile(conn: Connection, profile_id: str) -> list[dict[str, Any]]:
    """The groups a profile is in: id, name and member count."""
    everyone = group_members.alias("everyone")
    count = (select(func.count()).select_from(everyone).where(everyone.c.group == groups.c.id)
             .correlate(groups).scalar_subquery())
    rows = conn.execute(select(groups.c.id, groups.c.name, count.label("members"))
                        .join(group_members, group_members.c.group == groups.c.id)
                        .where(group_members.c.profile == profile_id).order_by(groups.c.name, groups.c.id)).mappings()
    return [dict(r) for r in rows]


def make(storage: Storage, maker: str, name: str) -> tuple[str, str]:
    """A new group with `maker` its first member: (its id, its invite token)."""
    token = secrets.token_urlsafe(32)
    group_id = secrets.token_hex(8)
    now = time.time()
    with storage.engine.begin() as conn:
        conn.execute(insert(groups).values(id=group_id, name=name, maker=maker, invite_hash=secret_hash(token),
                                           created_at=now))
        conn.execute(insert(group_members).values(group=group_id, profile=maker, joined_at=now))
    return group_id, token


def by_token(conn: Connection, group_id: str, token: str) -> dict[str, Any] | None:
    if len(token) > 200:
        return None
    row = conn.execute(select(groups).where(groups.c.id == group_id[:24], groups.c.invite_hash == secret_hash(token))
                       ).mappings().first()
    return dict(row) if row is not None else None


def join(storage: Storage, group_id: str, token: str, profile_id: str) -> bool:
    """Adds the profile to the group if `token` is its current invite token (False: it is not). Joining twice
    is joining once."""
    with storage.engine.begin() as conn:
        if by_token(conn, group_id, token) is None:
            return False
        if is_member(conn, group_id, profile_id):
            return True
        count = conn.execute(select(func.count()).select_from(group_members)
                             .where(group_members.c.group == group_id)).scalar_one()
        if count >= MEMBERS_MAX:
            raise ServerError(Code.GROUP_FULL, f"This group has its {MEMBERS_MAX} members already.",
                              f"このグループはすでに {MEMBERS_MAX} 人です。", 409)
        try:
            with conn.begin_nested():
                conn.execute(insert(group_members).values(group=group_id, profile=profile_id, joined_at=time.time()))
        except IntegrityError:
            pass  # the same person joining from two tabs at once: in once
        return True


def renew(storage: Storage, group_id: str) -> str:
    token = secrets.token_urlsafe(32)
    with storage.engine.begin() as conn:
        conn.execute(update(groups).where(groups.c.id == group_id).values(invite_hash=secret_hash(token)))
    return token


def remove_member(storage: Storage, group_id: str, profile_id: str) -> bool:
    """Takes the profile out of the group; a group left without members is deleted with its room marks."""
    with storage.engine.begin() as conn:
        gone = conn.execute(delete(group_members).where(group_members.c.group == group_id,
                                                        group_members.c.profile == profile_id)).rowcount
        group = _group(conn, group_id)
        if group is not None and group["maker"] == profile_id:
            left = members_of(conn, group_id)
            if left:
                conn.execute(update(groups).where(groups.c.id == group_id).values(maker=left[0]["profile"]))
            else:
                conn.execute(delete(group_rooms).where(group_rooms.c.group == group_id))
                conn.execute(delete(groups).where(groups.c.id == group_id))
        return bool(gone)


def tie_room(storage: Storage, code: str, group_id: str) -> None:
    with storage.engine.begin() as conn:
        conn.execute(insert(group_rooms).values(room=code, group=group_id))


def room_group(storage: Storage, code: str) -> dict[str, Any] | None:
    with storage.engine.connect() as conn:
        row = conn.execute(select(groups.c.id, groups.c.name).join(group_rooms, group_rooms.c.group == groups.c.id)
                           .where(group_rooms.c.room == code[:12])).mappings().first()
        return dict(row) if row is not None else None


def group_matches(conn: Connection, group_id: str) -> list[dict[str, Any]]:
    """The group's finished matches in the order they ended: game, when, and each placed seat's name, rank, win
    and points (with its profile when it is tied to one)."""
    found: list[dict[str, Any]] = []
    codes = conn.execute(select(group_rooms.c.room).where(group_rooms.c.group == group_id)).scalars().all()
    for code in codes:
        room = conn.execute(select(rooms).where(rooms.c.code == code)).mappings().one()
        table = {int(s["seat"]): s for s in conn.execute(select(seats).where(seats.c.room == code)).mappings()}
        earlier = conn.execute(select(matches).where(matches.c.room == code).order_by(matches.c.number)).mappings().all()
        # An earlier match ended when the next one started (the same people went on at once).
        ends = [float(m["started_at"]) for m in earlier[1:]] + [float(room["started_at"] or 0.0)] * bool(earlier)
        done = [(m["number"], m["game"], float(m["started_at"]), end, m["result"])
                for m, end in zip(earlier, ends, strict=True) if m["result"] is not None]
        if room["status"] == "over" and room["result"] is not None:
            started = float(room["started_at"] or 0.0)
            done.append((len(earlier) + 1, room["game"], started, float(room["finished_at"] or started), room["result"]))
        for number, game, started_at, ended_at, result in done:
            placed = json.loads(result)["seats"]
            scored = points({int(s["seat"]): int(s["rank"]) for s in placed})
            out = []
            for s in sorted(placed, key=lambda s: (int(s["rank"]), int(s["seat"]))):
                row = table.get(int(s["seat"]))
                human = row is not None and row["kind"] == "human"
                out.append({"seat": int(s["seat"]), "name": row["name"] if human and row else None,
                            "bot": row["bot"] if row is not None and not human else None,
                            "profile": row["profile"] if row is not None else None,
                            "rank": int(s["rank"]), "won": bool(s["is_winner"]), "points": scored[int(s["seat"])]})
            found.append({"room": code, "match": number, "game": game, "started_at": started_at,
                          "ended_at": ended_at, "seats": out})
    return sorted(found, key=lambda m: (m["ended_at"], m["room"], m["match"]))


def page(storage: Storage, group_id: str, viewer: str, base_url: str) -> dict[str, Any]:
    """The group as a member sees it (anyone else: `group/not_found`)."""
    with storage.engine.connect() as conn:
        group = _group(conn, group_id)
        if group is None or not is_member(conn, group_id, viewer):
            raise not_found(group_id)
        members = members_of(conn, group["id"])
        maker = maker_of(group, members)
        found = group_matches(conn, group["id"])
        names = {m["profile"]: m["name"] for m in members}
        for match in found:  # a member's seat shows their profile's name; others' profile ids are not shown
            for seat in match["seats"]:
                if seat["profile"] in names:
                    seat["name"] = names[seat["profile"]] or seat["name"]
                else:
                    seat["profile"] = None
        tonight, current = evening(found, time.time())
        ranked = standings(found, members)
        for row in ranked:
            row["ratings"] = ratings.of_profile(conn, row["profile"])
        return {"group": {"id": group["id"], "name": group["name"], "maker": maker, "link": f"{base_url}/g/{group['id']}"},
                "you": {"profile": viewer, "maker": viewer == maker},
                "members": [{"profile": m["profile"], "name": m["name"], "colour": m["colour"],
                             "joined_at": m["joined_at"], "maker": m["profile"] == maker} for m in members],
                "matches": len(found), "standings": ranked,
                "tonight": {"current": current, "since": tonight[0]["started_at"] if tonight else None,
                            "matches": tonight, "scoreboard": scoreboard(tonight, members)},
                "formula": FORMULA, "evening_gap_hours": EVENING_GAP / 3600,
                "provisional_below": ratings.PROVISIONAL_BELOW}


def leaderboard(storage: Storage, group_id: str, viewer: str, game: str) -> list[dict[str, Any]]:
    """The group's members ranked by their rating in `game` (those with one), best first."""
    with storage.engine.connect() as conn:
        if not is_member(conn, group_id, viewer):
            raise not_found(group_id)
        return ranked_members(conn, group_id, game)


def ranked_members(conn: Connection, group_id: str, game: str) -> list[dict[str, Any]]:
    rows = []
    for member in members_of(conn, group_id):
        for rating in ratings.of_profile(conn, member["profile"]):
            if rating["game"] == game:
                rows.append({"profile": member["profile"], "name": member["name"], "colour": member["colour"],
                             **rating})
    rows.sort(key=lambda r: (-r["rating"], r["profile"]))
    return [{"place": i + 1, **r} for i, r in enumerate(rows)]


def find_group(storage: Storage, name_or_id: str) -> list[dict[str, Any]]:
    """Groups whose id is `name_or_id`, else whose name is it (the terminal's `--group`)."""
    with storage.engine.connect() as conn:
        by_id = conn.execute(select(groups.c.id, groups.c.name).where(groups.c.id == name_or_id[:24])).mappings().all()
        if by_id:
            return [dict(r) for r in by_id]
        named = " ".join(name_or_id.split())
        return [dict(r) for r in conn.execute(select(groups.c.id, groups.c.name).where(groups.c.name == named)
                                              .order_by(groups.c.created_at)).mappings()]


def terminal_leaderboard(storage: Storage, group_id: str, game: str) -> list[dict[str, Any]]:
    with storage.engine.connect() as conn:
        return ranked_members(conn, group_id, game)


# -- HTTP ------------------------------------------------------------------------------------------------------
def install(app: FastAPI, hub: Hub, settings: Settings) -> None:
    """The group routes: /api/groups (GET: mine, POST: make), /api/groups/{id} (the page), .../invitation and
    .../join (an invite link), .../invite (renew it), .../leave, .../members/{profile} (DELETE: remove),
    .../leaderboard/{game}, and /api/rooms/{code}/group (a room's group, for its screens)."""
    base_url = hub.base_url
    guesses = ClientBuckets(JOIN_RATE, JOIN_BURST)  # wrong invite tokens per client address

    def same_site(request: Request) -> None:
        require_same_site(request, base_url, settings.allowed_origins, "change your groups", "グループを変更")

    async def me(request: Request) -> str:
        secret = request.cookies.get(COOKIE)
        row = await asyncio.to_thread(by_secret, hub.storage, secret) if secret else None
        if row is None:
            raise unknown_profile()
        return str(row["id"])

    async def rate() -> None:
        await asyncio.to_thread(ratings.rate_pending, hub.storage, hub.games)

    async def show(group_id: str, viewer: str) -> dict[str, Any]:
        await rate()
        return await asyncio.to_thread(page, hub.storage, group_id, viewer, base_url)

    def invite_link(group_id: str, token: str) -> str:
        return f"{base_url}/g/{group_id}/join#{token}"

    async def checked_token(request: Request, group_id: str, token: str) -> dict[str, Any]:
        """The group whose current invite token this is; wrong tokens are rate-limited per address."""
        address, now = request.client.host if request.client else "?", time.monotonic()
        if not guesses.has_token(address, now):
            raise ServerError(Code.RATE_LIMITED, "Too many invite links tried; wait a minute.",
                              "招待リンクの試行が多すぎます。1分ほど待ってください。", 429)

        def look() -> dict[str, Any] | None:
            with hub.storage.engine.connect() as conn:
                return by_token(conn, group_id, token)

        group = await asyncio.to_thread(look)
        if group is None:
            guesses.allow(address, now)
            raise invite_invalid()
        return group

    async def as_maker(request: Request, group_id: str) -> str:
        viewer = await me(request)

        def check() -> str | None:
            with hub.storage.engine.connect() as conn:
                group = _group(conn, group_id)
                if group is None or not is_member(conn, group_id, viewer):
                    raise not_found(group_id)
                return maker_of(group, members_of(conn, group_id))

        if await asyncio.to_thread(check) != viewer:
            raise not_maker()
        return viewer

    @app.get("/api/groups", tags=["groups"])
    async def my_groups(request: Request) -> dict[str, Any]:
        """The groups the browser's profile is in."""
        viewer = await me(request)

        def mine() -> list[dict[str, Any]]:
            with hub.storage.engine.connect() as conn:
                return of_profile(conn, viewer)

        return {"groups": await asyncio.to_thread(mine)}

    @app.post("/api/groups", tags=["groups"])
    async def make_group(body: NewGroup, request: Request) -> dict[str, Any]:
        """Makes a group with this profile its maker and first member; the answer holds its invite link."""
        same_site(request)
        viewer = await me(request)
        name = clean_group_name(body.name)
        group_id, token = await asyncio.to_thread(make, hub.storage, viewer, name)
        return {**await show(group_id, viewer), "invite": invite_link(group_id, token)}

    @app.get("/api/groups/{group_id}", tags=["groups"])
    async def get_group(group_id: str, request: Request) -> dict[str, Any]:
        """The group's members, standings across all games and tonight's matches and scoreboard (members only)."""
        return await show(group_id, await me(request))

    @app.post("/api/groups/{group_id}/invitation", tags=["groups"])
    async def invitation(group_id: str, body: Invitation, request: Request) -> dict[str, Any]:
        """What an invite link's holder sees before joining: the group's name and member count."""
        group = await checked_token(request, group_id, body.token)

        def count() -> int:
            with hub.storage.engine.connect() as conn:
                return len(members_of(conn, group["id"]))

        return {"id": group["id"], "name": group["name"], "members": await asyncio.to_thread(count)}

    @app.post("/api/groups/{group_id}/join", tags=["groups"])
    async def join_group(group_id: str, body: Invitation, request: Request) -> dict[str, Any]:
        """Joins the group with its invite link's token."""
        same_site(request)
        viewer = await me(request)
        group = await checked_token(request, group_id, body.token)
        if not await asyncio.to_thread(join, hub.storage, group["id"], body.token, viewer):
            raise invite_invalid()  # renewed a moment ago
        return await show(group["id"], viewer)

    @app.post("/api/groups/{group_id}/invite", tags=["groups"])
    async def renew_invite(group_id: str, request: Request) -> dict[str, Any]:
        """A new invite link (the maker only); the old one stops working."""
        same_site(request)
        await as_maker(request, group_id)
        token = await asyncio.to_thread(renew, hub.storage, group_id)
        return {"invite": invite_link(group_id, token)}

    @app.post("/api/groups/{group_id}/leave", tags=["groups"])
    async def leave_group(group_id: str, request: Request) -> dict[str, Any]:
        """Leaves the group (a maker who leaves hands the group to its earliest member)."""
        same_site(request)
        viewer = await me(request)
        if not await asyncio.to_thread(remove_member, hub.storage, group_id[:24], viewer):
            raise not_found(group_id)
        return {"left": group_id}

    @app.delete("/api/groups/{group_id}/members/{profile_id}", tags=["groups"])
    async def remove(group_id: str, profile_id: str, request: Request) -> dict[str, Any]:
        """The maker removes a member (to leave, the maker uses /leave)."""
        same_site(request)
        viewer = await as_maker(request, group_id)
        if profile_id == viewer or not await asyncio.to_thread(remove_member, hub.storage, group_id, profile_id[:24]):
            raise ServerError(Code.GROUP_MEMBER_UNKNOWN, "No such member to remove (to leave, use Leave).",
                              "削除できるメンバーではありません(自分は「退出」で抜けます)。", 404)
        return await show(group_id, viewer)

    @app.get("/api/groups/{group_id}/leaderboard/{game_id}", tags=["groups"])
    async def group_leaderboard(group_id: str, game_id: str, request: Request) -> dict[str, Any]:
        """The group's members ranked by their rating in the game (members only)."""
        viewer = await me(request)
        if game_id not in hub.games:
            raise ServerError(Code.GAME_UNKNOWN, f"No game {game_id[:40]!r}.", f"ゲーム「{game_id[:40]}」はありません。", 404)
        await rate()
        rows = await asyncio.to_thread(leaderboard, hub.storage, group_id, viewer, game_id)
        return {"game": game_id, "group": group_id, "provisional_below": ratings.PROVISIONAL_BELOW, "ratings": rows}

    @app.get("/api/rooms/{code}/group", tags=["groups"])
    async def group_of_room(code: str) -> dict[str, Any]:
        """The group a room was made for (null: none, or no such room): its screens show the name."""
        return {"group": await asyncio.to_thread(room_group, hub.storage, code)}


async def room_for(request: Request, storage: Storage, group_id: str | None) -> str | None:
    """The group a room about to be made is for: `group_id` if the browser's profile is a member (checked
    before the room is made: a refusal makes no room)."""
    if group_id is None:
        return None
    secret = request.cookies.get(COOKIE)
    row = await asyncio.to_thread(by_secret, storage, secret) if secret else None

    def member() -> bool:
        with storage.engine.connect() as conn:
            return row is not None and is_member(conn, group_id, row["id"])

    if not await asyncio.to_thread(member):
        raise not_found(group_id)
    return group_id[:24]

