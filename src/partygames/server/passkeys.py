"""Passkeys: a person signs in to their profile anywhere with a WebAuthn credential (issue #30).

Two ceremonies, each begun and finished by the browser's profile (its device cookie, profiles.py):

- **Register** (`/api/me/passkeys/register/begin`, then `.../finish`): the server gives the options
  (a fresh challenge, the RP ID, the profile as the WebAuthn user), the browser asks its authenticator
  (`navigator.credentials.create`), and the server verifies the attestation ("none" is asked for: nothing
  about the authenticator is needed) and stores the credential's public key for the profile.
- **Sign in** (`/api/me/passkeys/signin/begin`, then `.../finish`): a discoverable credential is asked for
  (`navigator.credentials.get` with no list: the person picks theirs), the server verifies the assertion's
  signature with the stored key, and the browser gets a device secret of its own for the credential's
  profile, as a transfer link's claim gives (the profile it had is left behind, not merged).

The RP ID and the expected origin come from the page that began the ceremony: its `Origin` is the address
the request came to (its `Host`) or the public URL (`--public-url`), else the request is refused; no `Origin`
(not a browser): the public URL. Passkeys need a secure context, so an origin that is plain http on another
host than localhost is refused (`passkey/insecure`) and the page offers the one-time link instead.

Each challenge is stored (its SHA-256: `passkey_challenges`), so that any process can finish a ceremony
another began; it is tied to the kind of ceremony and the browser's profile, expires after 5 minutes and is
spent once, in the same transaction as what the ceremony changes and only once the response has verified.
A response that does not verify (tampered, the wrong origin or RP, a signature counter that went back, an
unknown credential) or whose challenge is unknown, used or expired gets a coded error and changes nothing.
Begin and finish are rate-limited per client address, as transfer claims are.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict
from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Float,
    ForeignKey,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
    update,
)
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_authentication_credential_json,
    parse_client_data_json,
    parse_registration_credential_json,
)
from webauthn.helpers.cose import COSEAlgorithmIdentifier
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from partygames.server import profiles
from partygames.server.address import origin_allowed
from partygames.server.codes import Code
from partygames.server.errors import ServerError
from partygames.server.hub import Hub
from partygames.server.ratelimit import ClientBuckets
from partygames.server.settings import Settings
from partygames.server.storage import Storage, metadata

log = logging.getLogger(__name__)

CHALLENGE_SECONDS = 300  # a ceremony must be finished within 5 minutes of its beginning
RP_NAME = "Party Games"
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")  # a secure context over plain http too (and *.localhost)
ALGORITHMS = [COSEAlgorithmIdentifier.ECDSA_SHA_256, COSEAlgorithmIdentifier.EDDSA,
              COSEAlgorithmIdentifier.RSASSA_PKCS1_v1_5_SHA_256]

passkeys = Table(
    "passkeys", metadata,
    Column("credential_id", String(1400), primary_key=True),  # base64url
    Column("profile", String(24), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("public_key", Text, nullable=False),  # base64url of the COSE key
    Column("sign_count", BigInteger, nullable=False),
    Column("rp_id", String(255), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("used_at", Float, nullable=True),
)

challenges = Table(
    "passkey_challenges", metadata,
    Column("challenge_hash", String(64), primary_key=True),
    Column("kind", String(16), nullable=False),  # register | signin
    Column("profile", String(24), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("origin", String(300), nullable=False),
    Column("rp_id", String(255), nullable=False),
    Column("expires_at", Float, nullable=False, index=True),
    Column("used_at", Float, nullable=True),
)


class PasskeyResponse(BaseModel):
    """A ceremony's finish: the browser's PublicKeyCredential as JSON (binary fields in base64url)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    credential: dict[str, Any]


# -- refusals -----------------------------------------------------------------------------------------------
def challenge_invalid() -> ServerError:
    return ServerError(Code.PASSKEY_CHALLENGE, "This passkey request is unknown, already used or expired (each "
                       "works once, for 5 minutes): try again.",
                       "このパスキーの要求は無効か、使用済みか、期限切れです(1回だけ・5分間有効)。もう一度お試しください。",
                       410)


def response_invalid() -> ServerError:
    return ServerError(Code.PASSKEY_INVALID, "The passkey's answer could not be verified (it was changed, or made "
                       "for another site); nothing was changed.",
                       "パスキーの応答を検証できませんでした(改ざんされたか、別のサイト向けのものです)。何も変更していません。",
                       400)


def unknown_passkey() -> ServerError:
    return ServerError(Code.PASSKEY_UNKNOWN, "This passkey is not registered here (or its profile was deleted).",
                       "このパスキーはここに登録されていません(またはプロフィールが削除されました)。", 404)


def insecure() -> ServerError:
    return ServerError(Code.PASSKEY_INSECURE, "Passkeys need a secure page (https, or localhost): use a one-time "
                       "link to move your profile instead.",
                       "パスキーは安全なページ(https か localhost)でだけ使えます。代わりにワンタイムリンクでプロフィールを"
                       "移してください。", 400)


def site(request: Request, base_url: str) -> tuple[str, str]:
    """The origin a ceremony is for and its RP ID (the origin's host): the page's `Origin` when it is the
    address the request came to or the public URL, the public URL when no `Origin` is sent."""
    origin = request.headers.get("origin")
    if origin is None:
        parts = urlsplit(base_url)
        origin = f"{parts.scheme}://{parts.netloc}"
    elif not origin_allowed(origin, request.headers.get("host"), base_url, ()):
        raise ServerError(Code.ORIGIN_REFUSED, "A page on another site may not use your passkeys.",
                          "他のサイトのページからはパスキーを使えません。", 403)
    parts = urlsplit(origin.lower())
    host = parts.hostname or ""
    if parts.scheme != "https" and host not in LOCAL_HOSTS and not host.endswith(".localhost"):
        raise insecure()
    return origin, host


def _hash(challenge: bytes) -> str:
    return hashlib.sha256(challenge).hexdigest()


# -- storage (synchronous: the routes call these in worker threads) -------------------------------------------
def listed(storage: Storage, profile_id: str) -> list[dict[str, Any]]:
    """The profile's passkeys: their public ids and dates (never a key)."""
    with storage.engine.connect() as conn:
        rows = conn.execute(select(passkeys.c.credential_id, passkeys.c.rp_id, passkeys.c.created_at,
                                   passkeys.c.used_at).where(passkeys.c.profile == profile_id)
                            .order_by(passkeys.c.created_at)).mappings().all()
    return [{"id": r["credential_id"], "rp_id": r["rp_id"], "created_at": r["created_at"], "used_at": r["used_at"]}
            for r in rows]


def begin(storage: Storage, kind: str, profile_id: str, origin: str, rp_id: str) -> tuple[bytes, list[str]]:
    """A new challenge for a ceremony of `kind` begun by `profile_id`'s browser, stored (expired ones are
    forgotten on the way), and the profile's credential ids for this RP (a registration excludes them)."""
    challenge = secrets.token_bytes(32)
    now = time.time()
    with storage.engine.begin() as conn:
        conn.execute(delete(challenges).where(challenges.c.expires_at < now))
        conn.execute(insert(challenges).values(challenge_hash=_hash(challenge), kind=kind, profile=profile_id,
                                               origin=origin, rp_id=rp_id, expires_at=now + CHALLENGE_SECONDS))
        mine = conn.execute(select(passkeys.c.credential_id).where(passkeys.c.profile == profile_id,
                                                                   passkeys.c.rp_id == rp_id)).scalars().all()
    return challenge, list(mine)


def _open_challenge(storage: Storage, challenge: bytes, kind: str, profile_id: str) -> dict[str, Any]:
    """The stored challenge, if it is of `kind`, was begun by this profile's browser and is unused and unexpired."""
    with storage.engine.connect() as conn:
        row = conn.execute(select(challenges).where(
            challenges.c.challenge_hash == _hash(challenge), challenges.c.kind == kind,
            challenges.c.profile == profile_id, challenges.c.used_at.is_(None),
            challenges.c.expires_at > time.time())).mappings().first()
    if row is None:
        raise challenge_invalid()
    return dict(row)


def _spend(conn: Connection, challenge: bytes) -> None:
    """Marks the challenge used: a compare-and-set, so of two finishes at once one wins."""
    spent = conn.execute(update(challenges).where(
        challenges.c.challenge_hash == _hash(challenge), challenges.c.used_at.is_(None),
        challenges.c.expires_at > time.time()).values(used_at=time.time())
        .returning(challenges.c.challenge_hash)).first()
    if spent is None:
        raise challenge_invalid()


def finish_register(storage: Storage, profile_id: str, credential: dict[str, Any]) -> dict[str, Any]:
    """Verifies a registration and stores the passkey for the profile; refusals change nothing."""
    try:
        parsed = parse_registration_credential_json(credential)
        challenge = parse_client_data_json(parsed.response.client_data_json).challenge
    except Exception as error:  # anything the untrusted bytes make the parser raise is a refusal
        log.info("passkey registration refused: %s", error)
        raise response_invalid() from None
    row = _open_challenge(storage, challenge, "register", profile_id)
    try:
        verified = verify_registration_response(credential=parsed, expected_challenge=challenge,
                                                expected_rp_id=row["rp_id"], expected_origin=row["origin"],
                                                supported_pub_key_algs=ALGORITHMS)
    except Exception as error:
        log.info("passkey registration refused: %s", error)
        raise response_invalid() from None
    credential_id = bytes_to_base64url(verified.credential_id)
    now = time.time()
    with storage.engine.begin() as conn:
        _spend(conn, challenge)
        if conn.execute(select(passkeys.c.profile).where(passkeys.c.credential_id == credential_id)).first():
            raise ServerError(Code.PASSKEY_INVALID, "This passkey is already registered.",
                              "このパスキーはすでに登録されています。", 409)
        conn.execute(insert(passkeys).values(
            credential_id=credential_id, profile=profile_id, public_key=bytes_to_base64url(verified.credential_public_key),
            sign_count=verified.sign_count, rp_id=row["rp_id"], created_at=now))
    return {"id": credential_id, "rp_id": row["rp_id"], "created_at": now, "used_at": None}


def finish_signin(storage: Storage, profile_id: str, credential: dict[str, Any]) -> tuple[str, str | None]:
    """Verifies an assertion: (the passkey's profile, a new device secret for this browser, or None when the
    browser is already that profile's). Refusals change nothing."""
    try:
        parsed = parse_authentication_credential_json(credential)
        challenge = parse_client_data_json(parsed.response.client_data_json).challenge
    except Exception as error:
        log.info("passkey sign-in refused: %s", error)
        raise response_invalid() from None
    row = _open_challenge(storage, challenge, "signin", profile_id)
    credential_id = bytes_to_base64url(parsed.raw_id)
    with storage.engine.connect() as conn:
        key = conn.execute(select(passkeys).where(passkeys.c.credential_id == credential_id)).mappings().first()
    if key is None:
        raise unknown_passkey()
    try:
        verified = verify_authentication_response(
            credential=parsed, expected_challenge=challenge, expected_rp_id=row["rp_id"],
            expected_origin=row["origin"], credential_public_key=base64url_to_bytes(key["public_key"]),
            credential_current_sign_count=key["sign_count"])
    except Exception as error:
        log.info("passkey sign-in refused: %s", error)
        raise response_invalid() from None
    with storage.engine.begin() as conn:
        _spend(conn, challenge)
        counted = conn.execute(update(passkeys).where(passkeys.c.credential_id == credential_id,
                                                      passkeys.c.sign_count == key["sign_count"])
                               .values(sign_count=verified.new_sign_count, used_at=time.time())).rowcount
        if counted != 1:  # another sign-in with this passkey moved its counter meanwhile
            raise response_invalid()
        if key["profile"] == profile_id:
            return profile_id, None
        secret = secrets.token_urlsafe(32)
        conn.execute(insert(profiles.devices).values(secret_hash=profiles.secret_hash(secret), profile=key["profile"],
                                                     created_at=time.time()))
        return str(key["profile"]), secret


def remove(storage: Storage, profile_id: str, credential_id: str) -> None:
    with storage.engine.begin() as conn:
        gone = conn.execute(delete(passkeys).where(passkeys.c.credential_id == credential_id[:1400],
                                                   passkeys.c.profile == profile_id)).rowcount
    if gone != 1:
        raise unknown_passkey()


# -- HTTP --------------------------------------------------------------------------------------------------
def install(app: FastAPI, hub: Hub, settings: Settings) -> None:
    """The passkey routes under /api/me/passkeys: the list, the two ceremonies, and removing one."""
    base_url = hub.base_url
    tries = ClientBuckets(profiles.CLAIM_RATE, profiles.CLAIM_BURST)  # ceremony steps per client address

    async def me(request: Request) -> dict[str, Any]:
        secret = request.cookies.get(profiles.COOKIE)
        row = await asyncio.to_thread(profiles.by_secret, hub.storage, secret) if secret else None
        if row is None:
            raise profiles.unknown_profile()
        return row

    def limited(request: Request) -> None:
        if not tries.allow(request.client.host if request.client else "?", time.monotonic()):
            raise ServerError(Code.RATE_LIMITED, "Too many passkey attempts; wait a minute.",
                              "パスキーの試行が多すぎます。1分ほど待ってください。", 429)

    async def ceremony(request: Request) -> tuple[dict[str, Any], str, str]:
        """The checks every ceremony step makes, in order: the page's site, the rate, the browser's profile."""
        origin, rp_id = site(request, base_url)
        limited(request)
        return await me(request), origin, rp_id

    @app.get("/api/me/passkeys", tags=["profiles"])
    async def get_passkeys(request: Request) -> dict[str, Any]:
        """The profile's passkeys (their public ids and dates)."""
        row = await me(request)
        return {"passkeys": await asyncio.to_thread(listed, hub.storage, row["id"])}

    @app.post("/api/me/passkeys/register/begin", tags=["profiles"])
    async def register_begin(request: Request) -> dict[str, Any]:
        """The options for `navigator.credentials.create` (a challenge that works once, for 5 minutes)."""
        row, origin, rp_id = await ceremony(request)
        challenge, mine = await asyncio.to_thread(begin, hub.storage, "register", row["id"], origin, rp_id)
        name = row["name"] or RP_NAME
        options = generate_registration_options(
            rp_id=rp_id, rp_name=RP_NAME, user_id=row["id"].encode(), user_name=name, user_display_name=name,
            challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
            attestation=AttestationConveyancePreference.NONE, supported_pub_key_algs=ALGORITHMS,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in mine])
        return {"options": json.loads(options_to_json(options))}

    @app.post("/api/me/passkeys/register/finish", tags=["profiles"])
    async def register_finish(body: PasskeyResponse, request: Request) -> dict[str, Any]:
        """Verifies the authenticator's answer and keeps the passkey for this profile."""
        row, _origin, _rp_id = await ceremony(request)
        added = await asyncio.to_thread(finish_register, hub.storage, row["id"], body.credential)
        return {"passkey": added, "passkeys": await asyncio.to_thread(listed, hub.storage, row["id"])}

    @app.post("/api/me/passkeys/signin/begin", tags=["profiles"])
    async def signin_begin(request: Request) -> dict[str, Any]:
        """The options for `navigator.credentials.get` (any passkey of this site; one challenge, 5 minutes)."""
        row, origin, rp_id = await ceremony(request)
        challenge, _mine = await asyncio.to_thread(begin, hub.storage, "signin", row["id"], origin, rp_id)
        options = generate_authentication_options(rp_id=rp_id, challenge=challenge, timeout=CHALLENGE_SECONDS * 1000,
                                                  user_verification=UserVerificationRequirement.PREFERRED)
        return {"options": json.loads(options_to_json(options))}

    @app.post("/api/me/passkeys/signin/finish", tags=["profiles"])
    async def signin_finish(body: PasskeyResponse, request: Request) -> Response:
        """Verifies the passkey's signature: this browser becomes a device of the passkey's profile."""
        row, _origin, _rp_id = await ceremony(request)
        profile_id, secret = await asyncio.to_thread(finish_signin, hub.storage, row["id"], body.credential)
        response = JSONResponse(await asyncio.to_thread(profiles.page, hub.storage, profile_id, profile_id))
        if secret is not None:
            profiles.set_device_cookie(response, secret, request.url.scheme == "https" or base_url.startswith("https:"))
        return response

    @app.delete("/api/me/passkeys/{credential_id}", tags=["profiles"])
    async def delete_passkey(credential_id: str, request: Request) -> dict[str, Any]:
        """Removes one of this profile's passkeys (it no longer signs in)."""
        profiles.require_same_site(request, base_url, settings.allowed_origins, "change your passkeys",
                                   "パスキーを変更")
        row = await me(request)
        await asyncio.to_thread(remove, hub.storage, row["id"], credential_id)
        return {"passkeys": await asyncio.to_thread(listed, hub.storage, row["id"])}
