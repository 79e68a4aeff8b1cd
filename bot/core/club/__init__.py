"""The club and its members: ``membership`` (how a chat account joins), ``linking`` and ``member_links``
(which chat account is which member; link codes), ``member_admin``, ``member_import`` and ``member_columns`` (the
director's member list, and the columns systems read in it), ``names`` and ``name_key`` (names as people type them), ``member_notices`` and
``director_accounts`` (who gets private notices), ``federation`` and ``federation_tables`` (KNSB, FIDE,
EGD identities), ``club_details``, ``club_style`` and ``style_store`` (the club's TRF details and website
look), ``web_links`` (members' personal website links), ``forbidden_pairs`` (pairs every pairing keeps
apart), ``installation`` (this installation's id).
"""
