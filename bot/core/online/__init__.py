"""Playing online on a chess server: the club's games created there and their results read back (issue 43).

``lichess``: the client of lichess's HTTP API (``Lichess``): open challenges for two players, their cancel,
the games exported by ids (ndjson, at most 300 a request) or one as PGN, users' status, the OAuth token
exchange and ``/api/account``; typed answers and errors, and lichess's rules kept (one request at a time,
a minute's pause after a 429). ``pkce``: the verifier, the S256 challenge and the state of "log in with
lichess" (OAuth2 authorization code with PKCE). ``settings``: whether this bot plays online at all, and
its one client (``core.online.client()``): no token, no client, and no request to lichess ever.
"""
