"""Each system's words for Discord live in that system's own catalogue (``bot/<system>/i18n/<lang>/``):
its commands' names and descriptions, its options' names (``discord_param_<name>``) and descriptions, its
choices' labels and its confirmation's question and button. The adapter's catalogue
(``bot/adapters/i18n/<lang>/discord.json``) keeps its own words, the core's commands' and the options
that more than one owner's commands share; the adapter finds them all in the merged catalogue."""

from __future__ import annotations

import json
from collections import defaultdict

from bot.core.i18n import LANGUAGES, catalogue
from bot.core.commands.registry import Registry
from bot.systems import build_registry
from tests.paths import REPO


def words(registry: Registry) -> dict[str, set[str]]:
    """Catalogue key -> the owners ("" for the core) whose commands the Discord adapter uses it for."""
    owners: dict[str, set[str]] = defaultdict(set)
    for command in registry.commands.values():
        owner = registry.system_of[command.name]
        used = [f"discord_cmd_{command.name}", f"discord_desc_{command.name}", *(command.confirm or ())]
        if command.params is None:  # the adapter's own free-text option, whichever command declares none
            owners["discord_param_argumenten"].add("")
            owners["discord_pdesc_argumenten"].add("")
        for param in [p.name for p in command.params or ()]:
            used += [f"discord_param_{param}", f"discord_pdesc_{param}", f"discord_pdesc_{command.name}_{param}"]
        used += [label for p in command.params or () for label, _ in p.choices]
        for key in used:
            owners[key].add(owner)
    return owners


def keys_in(folder: str, language: str) -> set[str]:
    found: set[str] = set()
    for path in (REPO / folder / "i18n" / language).glob("*.json"):
        found |= json.loads(path.read_text(encoding="utf-8")).keys()
    return found


def test_a_systems_discord_words_are_in_its_own_catalogue() -> None:
    owners = words(build_registry())
    system_only = {key: next(iter(who)) for key, who in owners.items() if len(who) == 1 and "" not in who}
    assert len(system_only) > 100 and "discord_param_ronde" in system_only  # the words were found
    for language in LANGUAGES:
        adapter = keys_in("bot/adapters", language)
        for key, system in system_only.items():
            if key in catalogue(language):
                assert key in keys_in(f"bot/{system}", language), (language, key, system)
                assert key not in adapter, (language, key)
    for key in ("discord_param_speler", "discord_param_argumenten", "discord_cmd_taal"):  # shared or the core's
        assert key in keys_in("bot/adapters", "nl"), key
        # shared by several, the core's, or (argumenten) the adapter's own for a command without parameters,
        # whether or not one is registered now: never one system's
        assert len(owners[key]) != 1 or "" in owners[key], key
