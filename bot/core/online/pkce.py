"""PKCE for "log in with lichess" (OAuth2 authorization code flow with PKCE, RFC 7636; lichess accepts only
the S256 method): a fresh secret verifier per login, the challenge sent in the link, a state against forged
redirects."""

from __future__ import annotations

import base64
import hashlib
import secrets

METHOD = "S256"  # the only code challenge method lichess accepts


def new_verifier() -> str:
    """A code verifier: 64 random characters of RFC 7636's unreserved set (43 to 128 are allowed)."""
    return secrets.token_urlsafe(48)  # 48 bytes: 64 characters of A-Z a-z 0-9 - _


def challenge_of(verifier: str) -> str:
    """The S256 code challenge: BASE64URL(SHA256(ASCII(verifier))) without padding (RFC 7636 4.2)."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def new_state() -> str:
    """The ``state`` the redirect must bring back unchanged."""
    return secrets.token_urlsafe(24)
