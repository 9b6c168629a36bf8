"""A software WebAuthn authenticator for the server's passkey tests: a real P-256 key (ES256), attestation
"none" on registration, real signatures on assertions, and a knob for every field a tampered response might
change (the challenge, the origin, the RP ID, the flags, the counter, the signature)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import encode_cbor

UP, UV, AT = 0x01, 0x04, 0x40  # authenticator data flags: user present, user verified, attested credential


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Authenticator:
    """One passkey: its key, its credential id, its signature counter and the user handle it was made for."""

    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    credential_id: bytes = field(default_factory=lambda: os.urandom(32))
    count: int = 0
    user_handle: str | None = None

    def cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return encode_cbor({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})

    @staticmethod
    def client_data(kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], origin: str, *, challenge: str | None = None, rp_id: str | None = None,
               flags: int = UP | UV | AT, kind: str = "webauthn.create") -> dict[str, Any]:
        """`navigator.credentials.create`'s answer to `options` as the page would post it."""
        self.user_handle = options["user"]["id"]
        client_data = self.client_data(kind, challenge or options["challenge"], origin)
        auth_data = (hashlib.sha256((rp_id or options["rp"]["id"]).encode()).digest() + bytes([flags])
                     + self.count.to_bytes(4, "big") + bytes(16) + len(self.credential_id).to_bytes(2, "big")
                     + self.credential_id + self.cose_key())
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data), "attestationObject": b64(attestation)},
                "clientExtensionResults": {}}

    def get(self, options: dict[str, Any], origin: str, *, challenge: str | None = None, rp_id: str | None = None,
            flags: int = UP | UV, count: int | None = None, bad_signature: bool = False) -> dict[str, Any]:
        """`navigator.credentials.get`'s answer to `options`, signed (the counter goes up by one)."""
        self.count = self.count + 1 if count is None else count
        client_data = self.client_data("webauthn.get", challenge or options["challenge"], origin)
        auth_data = (hashlib.sha256((rp_id or options["rpId"]).encode()).digest() + bytes([flags])
                     + self.count.to_bytes(4, "big"))
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        if bad_signature:
            signature = self.key.sign(auth_data + b"other", ec.ECDSA(hashes.SHA256()))  # a real one, of other data
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data), "authenticatorData": b64(auth_data),
                             "signature": b64(signature), "userHandle": self.user_handle},
                "clientExtensionResults": {}}
