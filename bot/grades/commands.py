"""Grades kept with the Dutch points promotion system (seed 002, ``engine/promotion.py``). See docs/grades.md.

Commands (Dutch, English alias):

- ``/graad [Naam]`` (``/grade``): a grade card: grade, points in the current series, games counted, points
  and games still needed, and the games of the series.
- ``/graden [alle]`` (``/grades [all]``), director (the grade committee): players close to promotion
  (at most 45 points short), or every player with points.
- ``/graadzetten Naam graad [vanaf=JJJJ-MM-DD] [geschat] [onbetrouwbaar|betrouwbaar]`` (``/setgrade``),
  director: set a member's grade (their series starts on ``vanaf``, default today) and the committee's
  exceptions for them as an opponent.
- ``/partij Naam datum=... tegen=... [graad=2d] uitslag=gewonnen|verloren|remise minuten=90 byoyomi=30
  [handicap=0] [officieel=ja] [toernooi=...] [geschat] [onbetrouwbaar]`` (``/game``), director: enter a game;
  ``/partij wijzig N veld=waarde ...``, ``/partij verwijder N``, ``/partij lijst Naam``.
- ``/partijenimport`` (``/importgames``) with a CSV file, director: enter many games at once.
- ``/speeltempo [seizoen=Naam | nk=Naam] minuten=90 byoyomi=30 [officieel=ja|nee]`` (``/timecontrol``),
  director: the time control of a Keizer season or NK tournament, so its confirmed games count.

Promotions are found after every change made with these commands, whenever someone looks at a card or the
list, and each time the scheduler wakes (``run_due``: confirmed competition results); each is recorded once
with the games that earned it and announced in the club's channel.
"""


from __future__ import annotations



from bot.core.commands.registry import Command, Registry


from bot.grades import params
from bot.grades.cards import cmd_graad, cmd_graadzetten, cmd_graden
from bot.grades.club_grades import GradesSchedule, after_command
from bot.grades.games import cmd_partij, cmd_partijenimport, cmd_speeltempo


def register(registry: Registry) -> None:
    registry.add(Command("graad", cmd_graad, english="grade", params=params.GRAAD))
    registry.add(Command("graden", cmd_graden, director=True, english="grades", params=params.GRADEN))
    registry.add(Command("graadzetten", cmd_graadzetten, director=True, english="setgrade", params=params.GRAADZETTEN))
    registry.add(Command("partij", cmd_partij, director=True, english="game", params=params.PARTIJ))
    registry.add(Command("partijenimport", cmd_partijenimport, director=True, english="importgames", params=params.PARTIJENIMPORT))
    registry.add(Command("speeltempo", cmd_speeltempo, director=True, english="timecontrol", params=params.SPEELTEMPO))
    registry.after_command.append(after_command)
    registry.timed.append(GradesSchedule())


