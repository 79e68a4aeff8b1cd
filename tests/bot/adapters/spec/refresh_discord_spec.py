"""Refresh ``discord_openapi_subset.json``: the parts of Discord's official OpenAPI description (API v10,
github.com/discord/discord-api-spec, ``specs/openapi.json``) that the tests' fake (``fake_discord.py``)
serves, with every schema, response and header they refer to, and where they came from.

    git clone https://github.com/discord/discord-api-spec /tmp/discord-api-spec
    .venv/bin/python tests/bot/adapters/spec/refresh_discord_spec.py /tmp/discord-api-spec

Then run the Discord tests: a request the bot makes that the new description refuses fails its test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_name("discord_openapi_subset.json")
# (path, method): what the fake answers
OPERATIONS = [
    ("/users/@me", "get"),
    ("/users/{user_id}", "get"),
    ("/users/@me/channels", "post"),
    ("/oauth2/applications/@me", "get"),
    ("/gateway/bot", "get"),
    ("/applications/{application_id}/commands", "put"),
    ("/guilds/{guild_id}/members/{user_id}", "get"),
    ("/interactions/{interaction_id}/{interaction_token}/callback", "post"),
    ("/webhooks/{webhook_id}/{webhook_token}", "post"),
    ("/webhooks/{webhook_id}/{webhook_token}/messages/@original", "patch"),
    ("/webhooks/{webhook_id}/{webhook_token}/messages/@original", "delete"),
    ("/channels/{channel_id}/messages", "get"),
    ("/channels/{channel_id}/messages", "post"),
]


def refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"]} if isinstance(node.get("$ref"), str) else set()
        return found.union(*(refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(refs(v) for v in node))
    return set()


def subset(spec: dict[str, Any]) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for path, method in OPERATIONS:
        item = spec["paths"][path]
        paths.setdefault(path, {"parameters": item.get("parameters", [])})[method] = item[method]
    components: dict[str, dict[str, Any]] = {}
    todo = refs(paths)
    while todo:
        ref = todo.pop()
        _, _, kind, name = ref.split("/", 3)
        if name in components.get(kind, {}):
            continue
        node = spec["components"][kind][name]
        components.setdefault(kind, {})[name] = node
        todo |= refs(node)
    return {"openapi": spec["openapi"], "info": spec["info"], "paths": paths,
            "components": {k: dict(sorted(v.items())) for k, v in sorted(components.items())}}  # fmt: skip


def main(repo: str) -> None:
    commit = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    text = subprocess.run(["git", "-C", repo, "show", "HEAD:specs/openapi.json"], capture_output=True, text=True, check=True).stdout
    spec = json.loads(text)
    out = {
        "x-clubbot-source": {
            "repository": "https://github.com/discord/discord-api-spec", "file": "specs/openapi.json",
            "commit": commit, "api_version": spec["info"]["version"],
            "kept": "the operations fake_discord.py serves and every component they refer to",
        },
        **subset(spec),
    }  # fmt: skip
    OUT.write_text(json.dumps(out, indent=1, sort_keys=False) + "\n")
    print(f"{OUT}: {len(out['paths'])} paths, {sum(len(v) for v in out['components'].values())} components, commit {commit}")


if __name__ == "__main__":
    main(sys.argv[1])
