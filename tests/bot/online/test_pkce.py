"""PKCE for "log in with lichess" (``bot/core/online/pkce.py``): the S256 challenge of RFC 7636's own worked
example (Appendix B), and verifiers of the allowed alphabet and length, fresh each time."""

from __future__ import annotations

import re

from bot.core.online.pkce import METHOD, challenge_of, new_state, new_verifier


def test_the_challenge_is_s256_as_rfc_7636_appendix_b_works_it() -> None:
    assert challenge_of("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    assert METHOD == "S256"


def test_verifiers_are_43_to_128_unreserved_characters_and_never_the_same() -> None:
    made = {new_verifier() for _ in range(50)}
    assert len(made) == 50
    assert all(re.fullmatch(r"[A-Za-z0-9._~-]{43,128}", v) for v in made)
    assert all(len(challenge_of(v)) == 43 and "=" not in challenge_of(v) for v in made)
    assert new_state() != new_state()
