"""Profiles: a person who comes back, known by a device secret their browser holds (issue #30).

A profile is made silently on a browser's first visit (`GET /api/me`): a random 32-byte secret goes to the
browser in an HttpOnly cookie (SameSite=Lax; Secure when the page or the public URL is https) and only its
SHA-256 is stored (`devices`; a random secret needs no slow hash: there is nothing to guess). The secret is
never put in a URL, a frame or a response body. A one-time link (10 minutes, once) adds another browser to
the profile with a secret of its own. Every seat the browser then takes (creating a room, joining one) is tied
to its profile (`seats.profile`); who played each step of that seat, the person or a stand-in bot, is the
match log's business (`log_entries.source`).

Who sees what (docs/profiles.md): a profile's name, colour and ratings are public (the leaderboards show
them). Its matches are seen by the person, and by others only when `visibility` is "public"; the default,
"members", means the members of the person's groups (groups.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import secrets
import time
from collections.abc import Mapping
from typing import Annotated, Any

import emoji as unicode_emoji
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, StringConstraints
from sqlalchemy import (
    Column,
    Connection,
    Float,
    String,
    Table,
    delete,
    func,
    insert,
    select,
    update,
)

from partygames.server import ratings
from partygames.server.address import origin_allowed
from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.hub import Hub
from partygames.server.qr import join_qr_svg
from partygames.server.ratelimit import ClientBuckets
from partygames.server.settings import Settings
from partygames.server.storage import Storage, chat_messages, matches, metadata, played_matches, rooms, seats
from partygames.server.text import clean_name

COOKIE = "partygames_device"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the most browsers keep a cookie (Chromium caps it at 400 days)
COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324")
VISIBILITIES = ("members", "public")
ANONYMOUS = "—"  # a deleted person's seats keep this name
CLAIM_RATE, CLAIM_BURST = 10 / 60, 10  # transfer claims per client address: 10, then one every 6 s

profiles = Table(
    "profiles", metadata,
    Column("id", String(24), primary_key=True),  # public: links and leaderboards name it
    Column("name", String(64), nullable=True),  # None until set or until its first seat names it
    Column("colour", String(16), nullable=False),
    Column("emoji", String(64), nullable=True),  # shown beside the name instead of the colour (migration 0005)
    Column("visibility", String(16), nullable=False, server_default="members"),
    Column("created_at", Float, nullable=False),
)

devices = Table(
    "devices", metadata,  # the browsers of a profile
    Column("secret_hash", String(64), primary_key=True),  # SHA-256 of the device secret
    Column("profile", String(24), nullable=False),
    Column("created_at", Float, nullable=False),
)

transfers = Table(
    "transfers", metadata,  # one-time links that add a device to a profile
    Column("token_hash", String(64), primary_key=True),
    Column("profile", String(24), nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("used_at", Float, nullable=True),
)
TRANSFER_SECONDS = 600  # a link works for 10 minutes, once


def require_same_site(request: Request, public: str, allowed: tuple[str, ...], what_en: str, what_ja: str) -> None:
    """A change that a browser's cookie authorises comes only from this server's own pages (the WebSockets'
    Origin check): refused with `origin/refused` otherwise. `what_en`/`what_ja` name the change ("change your
    profile" / 「プロフィールを変更」)."""
    if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), public, allowed):
        raise ServerError(Code.ORIGIN_REFUSED, f"A page on another site may not {what_en}.",
                          f"他のサイトのページからは{what_ja}できません。", 403)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def unknown_profile() -> ServerError:
    return ServerError(Code.PROFILE_UNKNOWN, "This browser's profile is not known here (it was deleted, or the "
                       "cookie is not one this server made). Reload the page to start a new profile.",
                       "このブラウザのプロフィールはここにありません(削除されたか、このサーバーが作ったクッキーでは"
                       "ありません)。ページを再読み込みすると新しいプロフィールが作られます。", 401)


def no_profile(profile_id: str) -> ServerError:
    return ServerError(Code.PROFILE_NOT_FOUND, f"No profile {profile_id[:24]!r} that you may see.",
                       f"見られるプロフィール「{profile_id[:24]}」はありません。", 404)


class TransferClaim(BaseModel):
    """`POST /api/me/claim`: the token from a transfer link's fragment."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: Annotated[str, StringConstraints(max_length=200)]


class ProfileChange(BaseModel):
    """`PATCH /api/me`: the fields to change (omitted: kept)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: Annotated[str, StringConstraints(max_length=10_000)] | None = None
    colour: Annotated[str, StringConstraints(max_length=100)] | None = None
    emoji: Annotated[str, StringConstraints(max_length=100)] | None = None  # "": none
    visibility: Annotated[str, StringConstraints(max_length=100)] | None = None


def checked(change: ProfileChange) -> dict[str, Any]:
    """The columns `change` sets, every field checked first (a refusal changes nothing)."""
    values: dict[str, Any] = {}
    if change.name is not None:
        values["name"] = clean_name(change.name)
    if change.colour is not None:
        colour = change.colour.strip().lower()
        if not re.fullmatch(r"#[0-9a-f]{6}", colour):
            raise ServerError(Code.PROFILE_COLOUR, "A colour is #rrggbb (six hexadecimal digits).",
                              "色は #rrggbb(16進数6桁)で指定します。", 422)
        values["colour"] = colour
    if change.emoji is not None:
        values["emoji"] = checked_emoji(change.emoji)
    if change.visibility is not None:
        if change.visibility not in VISIBILITIES:
            raise ServerError(Code.PROFILE_VISIBILITY, "Who sees your matches is \"members\" or \"public\".",
                              "対戦履歴の公開範囲は \"members\" か \"public\" です。", 422)
        values["visibility"] = change.visibility
    return values


def checked_emoji(text: str) -> str | None:
    """One emoji as Unicode lists them (a sequence such as a flag, a skin tone or a family is one), written
    fully qualified (U+FE0F added where it is missing); "" (or blanks): none. Anything else is refused."""
    text = text.strip()
    if not text:
        return None
    for candidate in (text, text + "\ufe0f"):
        known = unicode_emoji.EMOJI_DATA.get(candidate)
        if known is not None and known["status"] == unicode_emoji.STATUS["fully_qualified"]:
            return candidate
    raise ServerError(Code.PROFILE_EMOJI, "An emoji is one emoji (a flag, a skin tone or a family counts as one), "
                      "or nothing.", "絵文字は1つだけ指定します(国旗・肌の色・家族などの組み合わせも1つです)。空欄で"
                      "なしにできます。", 422)


# -- storage (synchronous: the routes call these in worker threads) -------------------------------------------
def make(storage: Storage) -> tuple[dict[str, Any], str]:
    """A new profile and its device secret (the only time the secret exists outside the browser)."""
    secret = secrets.token_urlsafe(32)
    row = {"id": secrets.token_hex(8), "name": None, "colour": secrets.choice(COLOURS), "visibility": "members",
           "created_at": time.time()}
    with storage.engine.begin() as conn:
        conn.execute(insert(profiles).values(**row))
        conn.execute(insert(devices).values(secret_hash=secret_hash(secret), profile=row["id"], created_at=time.time()))
    return row, secret


def by_secret(storage: Storage, secret: str) -> dict[str, Any] | None:
    if len(secret) > 200:
        return None
    with storage.engine.connect() as conn:
        row = conn.execute(select(profiles).join(devices, devices.c.profile == profiles.c.id)
                           .where(devices.c.secret_hash == secret_hash(secret))).mappings().first()
        return dict(row) if row is not None else None


def owns_seat(storage: Storage, secret: str, code: str, seat: int) -> bool:
    """Whether the browser with device `secret` holds the profile tied to room `code`'s `seat`."""
    if len(secret) > 200:
        return False
    with storage.engine.connect() as conn:
        return conn.execute(select(seats.c.seat).join(devices, devices.c.profile == seats.c.profile).where(
            devices.c.secret_hash == secret_hash(secret), seats.c.room == code, seats.c.seat == seat)).first() is not None


def new_transfer(storage: Storage, profile_id: str) -> tuple[str, float]:
    """A one-time token that adds a device to the profile, and when it expires."""
    token = secrets.token_urlsafe(32)
    expires = time.time() + TRANSFER_SECONDS
    with storage.engine.begin() as conn:
        conn.execute(insert(transfers).values(token_hash=secret_hash(token), profile=profile_id, expires_at=expires))
    return token, expires


def claim_transfer(storage: Storage, token: str) -> tuple[str, str] | None:
    """Spends a transfer token: (the profile, a new device secret for it), or None when the token is unknown,
    used or expired. Spending is one compare-and-set: of two claims at once, one wins."""
    if len(token) > 200:
        return None
    with storage.engine.begin() as conn:
        spent = conn.execute(update(transfers).where(
            transfers.c.token_hash == secret_hash(token), transfers.c.used_at.is_(None),
            transfers.c.expires_at > time.time()).values(used_at=time.time()).returning(transfers.c.profile)).scalar()
        if spent is None:
            return None
        secret = secrets.token_urlsafe(32)
        conn.execute(insert(devices).values(secret_hash=secret_hash(secret), profile=spent, created_at=time.time()))
        return str(spent), secret


def by_id(conn: Connection, profile_id: str) -> dict[str, Any] | None:
    row = conn.execute(select(profiles).where(profiles.c.id == profile_id[:24])).mappings().first()
    return dict(row) if row is not None else None


def tie_seat(storage: Storage, code: str, seat: int, profile: Mapping[str, Any], name: str | None) -> None:
    """Ties room `code`'s `seat` to `profile`; a profile without a name takes the seat's."""
    with storage.engine.begin() as conn:
        conn.execute(update(seats).where(seats.c.room == code, seats.c.seat == seat).values(profile=profile["id"]))
        if profile["name"] is None and name:
            conn.execute(update(profiles).where(profiles.c.id == profile["id"], profiles.c.name.is_(None))
                         .values(name=name))


def change(storage: Storage, profile_id: str, values: Mapping[str, Any]) -> None:
    if values:
        with storage.engine.begin() as conn:
            conn.execute(update(profiles).where(profiles.c.id == profile_id).values(**values))


def remove(storage: Storage, profile_id: str) -> None:
    """Deletes the person: their profile and ratings go; their seats stay in the matches, anonymised, and so
    does what they said in those rooms' chat (the name it was sent under)."""
    with storage.engine.begin() as conn:
        for code, seat in conn.execute(select(seats.c.room, seats.c.seat).where(seats.c.profile == profile_id)).all():
            conn.execute(update(chat_messages).where(chat_messages.c.room == code, chat_messages.c.seat == seat)
                         .values(name=ANONYMOUS))
        conn.execute(update(seats).where(seats.c.profile == profile_id).values(profile=None, name=ANONYMOUS))
        conn.execute(delete(ratings.ratings).where(ratings.ratings.c.profile == profile_id))
        conn.execute(delete(played_matches).where(played_matches.c.profile == profile_id))
        conn.execute(delete(devices).where(devices.c.profile == profile_id))
        conn.execute(delete(transfers).where(transfers.c.profile == profile_id))
        conn.execute(delete(profiles).where(profiles.c.id == profile_id))


HISTORY_PAGE = 50  # the matches a profile page shows; `more` names the next page


def played(conn: Connection, profile_id: str, limit: int | None = None, offset: int = 0) -> list[dict[str, Any]]:
    """The profile's finished matches, newest first (`limit` of them from `offset`; None: all): game, date,
    result, the other players and a link to the replay of the person's seat in that match (`?match=`: a room's
    earlier matches of the evening too). One query whatever the page's length or the person's number of matches:
    the page is a range of the history's index (`played_by_date`), joined with its rooms, results and seats."""
    mine = played_matches
    listed = (select(mine.c.room, mine.c.seat, mine.c.number, mine.c.date).where(mine.c.profile == profile_id)
              .order_by(mine.c.date.desc(), mine.c.room, mine.c.number.desc(), mine.c.seat))
    if limit is not None:
        listed = listed.limit(limit).offset(offset)
    page = listed.subquery("page")
    rows = conn.execute(
        select(page.c.room, page.c.seat, page.c.number, page.c.date,
               func.coalesce(matches.c.game, rooms.c.game).label("game"),
               func.coalesce(matches.c.result, rooms.c.result).label("result"),
               seats.c.seat.label("at"), seats.c.kind, seats.c.bot, seats.c.name, seats.c.profile,
               profiles.c.colour, profiles.c.emoji)
        .select_from(page.join(rooms, rooms.c.code == page.c.room)
                     .outerjoin(matches, (matches.c.room == page.c.room) & (matches.c.number == page.c.number))
                     .join(seats, seats.c.room == page.c.room)
                     .outerjoin(profiles, profiles.c.id == seats.c.profile))
        .order_by(page.c.date.desc(), page.c.room, page.c.number.desc(), page.c.seat, seats.c.seat)).mappings()
    out: list[dict[str, Any]] = []
    for r in rows:
        if not out or (out[-1]["room"], out[-1]["match"], out[-1]["seat"]) != (r["room"], r["number"], r["seat"]):
            placed = next((s for s in json.loads(r["result"])["seats"] if s["seat"] == r["seat"]), None)
            out.append({"room": r["room"], "match": r["number"], "game": r["game"], "date": r["date"],
                        "seat": r["seat"], "rank": placed["rank"] if placed else None,
                        "won": placed["is_winner"] if placed else None, "score": placed["score"] if placed else None,
                        "others": [],
                        "replay": f"/api/rooms/{r['room']}/replay?seat={r['seat']}&match={r['number']}"})
        if r["at"] != r["seat"]:
            out[-1]["others"].append({"seat": r["at"], "name": r["name"] if r["kind"] == "human" else None,
                                      "bot": r["bot"], "profile": r["profile"],
                                      "colour": r["colour"], "emoji": r["emoji"]})
    return out


def public_json(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "name": row["name"], "colour": row["colour"], "emoji": row["emoji"],
            "visibility": row["visibility"]}


def page(storage: Storage, profile_id: str, viewer: str | None, limit: int = HISTORY_PAGE,
         offset: int = 0) -> dict[str, Any]:
    """A profile as `viewer` (a profile id, None: a stranger) may see it: the matches for the person, for the
    members of the person's groups, and when public for anyone, `limit` of them, newest first, from `offset`,
    and `more`: the address of the next page (None: no more); the groups only for the person."""
    limit, offset = max(1, min(limit, 100)), max(0, min(offset, 1_000_000))
    with storage.engine.connect() as conn:
        row = by_id(conn, profile_id)
        if row is None:
            raise no_profile(profile_id)
        from partygames.server import groups  # (groups.py imports this module)

        shown = viewer == row["id"] or row["visibility"] == "public" or (
            viewer is not None and groups.share_a_group(conn, viewer, row["id"]))
        listed = played(conn, row["id"], limit + 1, offset) if shown else None
        more = None
        if listed is not None and len(listed) > limit:
            listed, more = listed[:limit], f"/api/profiles/{row['id']}?offset={offset + limit}&limit={limit}"
        return {"profile": public_json(row), "ratings": ratings.of_profile(conn, row["id"]),
                "matches": listed, "more": more,
                "groups": groups.of_profile(conn, row["id"]) if viewer == row["id"] else None,
                "provisional_below": ratings.PROVISIONAL_BELOW}


def export(storage: Storage, profile_id: str) -> dict[str, Any]:
    """Everything stored about the person ("Export my data"), never a secret's hash."""
    with storage.engine.connect() as conn:
        row = by_id(conn, profile_id)
        assert row is not None
        seated = [dict(s) for s in conn.execute(select(seats.c.room, seats.c.seat, seats.c.name, seats.c.kind)
                                                 .where(seats.c.profile == profile_id)).mappings()]
        data = {"profile": {**public_json(row), "created_at": row["created_at"]}, "seats": seated,
                "matches": played(conn, profile_id), "ratings": ratings.of_profile(conn, profile_id)}
    from partygames.server import passkeys  # passkeys.py builds on this module
    return {**data, "passkeys": passkeys.listed(storage, profile_id)}


# -- HTTP --------------------------------------------------------------------------------------------------
def set_device_cookie(response: Response, secret: str, secure: bool) -> None:
    """Gives the browser its device secret (a passkey's sign-in does too: passkeys.py)."""
    response.set_cookie(COOKIE, secret, max_age=COOKIE_MAX_AGE, path="/", httponly=True, samesite="lax",
                        secure=secure)


def install(app: FastAPI, hub: Hub, settings: Settings) -> None:
    """The profile routes: /api/me (GET, PATCH, DELETE), /api/me/export, /api/me/transfer and /api/me/claim
    (moving to another device), /api/profiles/{id} and /api/leaderboard/{game}."""
    base_url, games = hub.base_url, hub.games

    def secure(request: Request) -> bool:
        return request.url.scheme == "https" or base_url.startswith("https:")

    claims = ClientBuckets(CLAIM_RATE, CLAIM_BURST)  # transfer claims per client address

    def set_device(response: Response, request: Request, secret: str) -> None:
        set_device_cookie(response, secret, secure(request))

    def same_site(request: Request) -> None:
        require_same_site(request, base_url, settings.allowed_origins, "change your profile", "プロフィールを変更")

    async def me(request: Request) -> dict[str, Any]:
        """The browser's profile; refused (changing nothing) when its cookie names none."""
        secret = request.cookies.get(COOKIE)
        row = await asyncio.to_thread(by_secret, hub.storage, secret) if secret else None
        if row is None:
            raise unknown_profile()
        return row

    def forget_cookie(response: Response) -> None:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")

    @app.get("/api/me", tags=["profiles"])
    async def get_me(request: Request) -> Response:
        """The browser's profile, its matches and ratings; made on the first visit (the cookie is set)."""
        secret = request.cookies.get(COOKIE)
        made: str | None = None
        if secret is None:
            row, made = await asyncio.to_thread(make, hub.storage)
        else:
            found = await asyncio.to_thread(by_secret, hub.storage, secret)
            if found is None:
                # A forged or stale cookie: nothing is made now; the browser forgets it, so the next visit
                # starts a new profile.
                error = unknown_profile()
                response = JSONResponse({"error": error.to_json()}, status_code=error.status)
                forget_cookie(response)
                return response
            row = found
        body = await asyncio.to_thread(page, hub.storage, row["id"], row["id"])
        response = JSONResponse(body)
        if made is not None:
            set_device(response, request, made)
        return response

    @app.patch("/api/me", tags=["profiles"])
    async def patch_me(body: ProfileChange, request: Request) -> dict[str, Any]:
        """Changes the name, colour (#rrggbb), emoji ("": none) or who sees the matches ("members" or "public")."""
        same_site(request)
        row = await me(request)
        values = checked(body)
        await asyncio.to_thread(change, hub.storage, row["id"], values)
        return await asyncio.to_thread(page, hub.storage, row["id"], row["id"])

    @app.delete("/api/me", tags=["profiles"])
    async def delete_me(request: Request) -> Response:
        """Deletes the person: the profile and ratings go, the matches stay with the seat anonymised."""
        same_site(request)
        row = await me(request)
        await asyncio.to_thread(remove, hub.storage, row["id"])
        response = JSONResponse({"deleted": row["id"]})
        forget_cookie(response)
        return response

    @app.post("/api/me/transfer", tags=["profiles"])
    async def transfer(request: Request) -> dict[str, Any]:
        """A link (and its QR code) that adds another device to this profile: it works once, for 10 minutes.
        The token is in the link's fragment, which browsers never send to a server."""
        same_site(request)
        row = await me(request)
        token, expires = await asyncio.to_thread(new_transfer, hub.storage, row["id"])
        link = f"{base_url}/me/claim#{token}"
        return {"link": link, "expires_at": expires, "seconds": TRANSFER_SECONDS,
                "qr_svg": join_qr_svg(link).decode()}

    @app.post("/api/me/claim", tags=["profiles"])
    async def claim(body: TransferClaim, request: Request) -> Response:
        """Spends a transfer link's token: this browser becomes a device of that profile."""
        same_site(request)
        if not claims.allow(request.client.host if request.client else "?", time.monotonic()):
            raise ServerError(Code.RATE_LIMITED, "Too many transfer links tried; wait a minute.",
                              "引き継ぎリンクの試行が多すぎます。1分ほど待ってください。", 429)
        claimed = await asyncio.to_thread(claim_transfer, hub.storage, body.token)
        if claimed is None:
            raise ServerError(Code.TRANSFER_INVALID, "This link is unknown, already used or expired (links work "
                              "once, for 10 minutes): make a new one on your other device.",
                              "このリンクは無効か、使用済みか、期限切れです(リンクは10分間・1回だけ有効)。"
                              "元の端末で新しいリンクを作ってください。", 410)
        profile_id, secret = claimed
        response = JSONResponse(await asyncio.to_thread(page, hub.storage, profile_id, profile_id))
        set_device(response, request, secret)
        return response

    @app.get("/api/me/export", tags=["profiles"])
    async def export_me(request: Request) -> Response:
        """Everything stored about the person, as a JSON file."""
        row = await me(request)
        data = await asyncio.to_thread(export, hub.storage, row["id"])
        return JSONResponse(data, headers={"Content-Disposition": 'attachment; filename="partygames-profile.json"'})

    @app.get("/api/profiles/{profile_id}", tags=["profiles"])
    async def get_profile(profile_id: str, request: Request, limit: int = HISTORY_PAGE, offset: int = 0) -> dict[str, Any]:
        """A profile as the asker may see it: its matches only if it is theirs or public (`limit` of them, newest
        first, from `offset`; `more` is the next page's address)."""
        secret = request.cookies.get(COOKIE)
        viewer = await asyncio.to_thread(by_secret, hub.storage, secret) if secret else None
        return await asyncio.to_thread(page, hub.storage, profile_id, viewer["id"] if viewer else None, limit, offset)

    @app.get("/api/leaderboard/{game_id}", tags=["profiles"])
    async def leaderboard(game_id: str, limit: int = 50, offset: int = 0) -> dict[str, Any]:
        """The game's ratings, best first (mu - 3 sigma; provisional below a count of rated matches)."""
        if game_id not in games:
            raise ServerError(Code.GAME_UNKNOWN, f"No game {game_id[:40]!r}.", f"ゲーム「{game_id[:40]}」はありません。", 404)
        rows = await asyncio.to_thread(ratings.leaderboard, hub.storage, game_id, max(1, min(limit, 100)),
                                       max(0, min(offset, 1_000_000)))
        return {"game": game_id, "provisional_below": ratings.PROVISIONAL_BELOW, "ratings": rows}


async def seat_taken(request: Request, storage: Storage, code: str, seat: int | None, name: str | None) -> None:
    """Ties a seat just taken to the browser's profile (a client without the cookie stays anonymous)."""
    secret = request.cookies.get(COOKIE)
    if seat is None or not secret:
        return
    row = await asyncio.to_thread(by_secret, storage, secret)
    if row is not None:
        await asyncio.to_thread(tie_seat, storage, code, seat, row, name)
