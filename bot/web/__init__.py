"""The clubs' websites, served by the bot in the same process on the same store (aiohttp, Jinja2).

``server`` is an adapter like the chat ones: a page is the reply of a read-only command (``/stand``,
``/indeling``, ``/prijzen``, ``/kruistabel``) run through ``Core.handle`` for the club, so it comes from the
same read path and reply cache as the chat, and it shows only what the chat shows (a round's pairing from
its publication on). ``templates`` are the pages (escaped by default).
"""
