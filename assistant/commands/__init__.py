"""The subcommands of ``soloscope``: one module each, listed here by name, module and help line.

The command line reads this table to list the commands and imports only the module of the
command being run, so that ``soloscope --help``, ``rules`` or ``oracle`` answer at once instead
of loading every command's dependencies (PDF, campaign, replay, the rule systems...). Each module
keeps its ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``; a new command is
its module plus one line here (a test holds this table to the modules).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """One subcommand: its name on the command line, its module here, its one-line help."""

    name: str
    module: str
    help: str


COMMANDS: tuple[Command, ...] = (
    Command(
        "calibrate",
        "calibrate",
        "Map the table from its four corner tags, report the set-up's quality and save a profile.",
    ),
    Command(
        "campaign",
        "campaign",
        "Campaigns: a roster whose wounds carry over, battles chained by outcome, kept in SQLite.",
    ),
    Command(
        "demo",
        "demo",
        "Play the bundled sample footage end to end as if it were the camera, with speech (no camera needed).",
    ),
    Command(
        "detect",
        "detect",
        "Print the raw tag sightings of every frame (pixels), for diagnosing a set-up.",
    ),
    Command(
        "dice", "dice", "Read the dice in a picture of the dice tray (or any picture of dice)."
    ),
    Command(
        "footage",
        "footage",
        "Render a seeded battle, carried out by a virtual hand on the synthetic table, as a video with ground truth.",
    ),
    Command(
        "generate",
        "generate",
        "Generate terrain (and more) from the solo rules' tables: 'generate WHAT --help'.",
    ),
    Command(
        "markers",
        "markers",
        "Write the printable kit (tags, lens board, rulers) as a true-scale PDF.",
    ),
    Command(
        "odds", "odds", "Exact odds of a ruleset's roll: 'odds RULESET --help' lists what it takes."
    ),
    Command(
        "oracle",
        "oracle",
        "Ask the d20 oracle what happens next (or a yes/no question with --yes-no).",
    ),
    Command(
        "play",
        "play",
        "Play a battle at the table: the camera reads it, the AI gives its orders aloud and on a web page.",
    ),
    Command(
        "render",
        "render",
        "Render the synthetic table (a still image or a scripted clip) with its ground truth.",
    ),
    Command(
        "replay",
        "replay",
        "Build a replay (timeline, board states, events, HTML viewer) from recorded footage.",
    ),
    Command(
        "roster",
        "skirmish_roster",
        "Warbands: 'roster new --ruleset skirmish2d6 FILE' starts a warband file or checks one.",
    ),
    Command("rules", "rules", "List the registered rulesets and AI controllers."),
    Command(
        "scenarios",
        "scenarios",
        "List the bundled scenarios (any command taking SCENARIO accepts one of these names or a path).",
    ),
    Command(
        "secret", "secret", "Roll for a secret where it could be found: there on 16+ on a d20."
    ),
    Command(
        "simulate",
        "simulate",
        "Play a whole battle, the scenario's AI against the autopilot, and print its log.",
    ),
    Command("track", "track", "Print every tracked tag's pose in table inches, frame by frame."),
)
