"""Shell completion scripts for ``nhex``, written from its argument parser (``nhex completion bash|zsh|fish``).

The scripts are static: the shell completes from the lists written into them and never starts nhex on a TAB,
so completion costs nothing at start-up (issue 10). They know the commands, each command's options, the
choices of options that have them, and complete file names elsewhere. Regenerate them after an upgrade.
"""

from __future__ import annotations

import argparse

SHELLS = ("bash", "zsh", "fish")


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its sub-commands here and nowhere public
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(command: argparse.ArgumentParser) -> list[tuple[list[str], list[str], str]]:
    """``(option strings, choices, help)`` of each option of a command."""
    found = []
    for action in command._actions:
        if action.option_strings:
            choices = [str(c) for c in action.choices] if action.choices else []
            found.append((list(action.option_strings), choices, (action.help or "").split("(")[0].strip()))
    return found


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    if shell == "fish":
        return _fish(parser)
    text = _bash(parser)
    if shell == "zsh":
        return "autoload -U +X bashcompinit && bashcompinit\n" + text
    return text


def _bash(parser: argparse.ArgumentParser) -> str:
    commands = _commands(parser)
    cases = []
    for name, command in commands.items():
        options = " ".join(o for strings, _, _ in _options(command) for o in strings)
        choices = "".join(f"      {' | '.join(strings)}) COMPREPLY=( $(compgen -W \"{' '.join(values)}\" -- \"$cur\") ); "
                          "return;;\n" for strings, values, _ in _options(command) if values)
        cases.append(f"    {name})\n      opts=\"{options}\"\n      case \"$prev\" in\n{choices}      esac;;\n")
    top = " ".join([*commands, "--help", "--version"])
    return ("# nhex completion for bash (nhex completion bash > ~/.local/share/bash-completion/completions/nhex)\n"
            "_nhex() {\n"
            "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" opts=\"\"\n"
            "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
            f"    COMPREPLY=( $(compgen -W \"{top}\" -- \"$cur\") ); return\n"
            "  fi\n"
            "  case \"${COMP_WORDS[1]}\" in\n"
            + "".join(cases) +
            "  esac\n"
            "  if [[ \"$cur\" == -* ]]; then\n"
            "    COMPREPLY=( $(compgen -W \"$opts\" -- \"$cur\") )\n"
            "  else\n"
            "    COMPREPLY=( $(compgen -f -- \"$cur\") )\n"
            "  fi\n"
            "}\n"
            "complete -o filenames -F _nhex nhex\n")


def _fish(parser: argparse.ArgumentParser) -> str:
    commands = _commands(parser)
    lines = ["# nhex completion for fish (nhex completion fish > ~/.config/fish/completions/nhex.fish)",
             "complete -c nhex -f -n __fish_use_subcommand -l version -d 'print the version'"]
    for name, command in commands.items():
        about = (command.description or "").replace("'", "\\'")
        lines.append(f"complete -c nhex -f -n __fish_use_subcommand -a {name} -d '{about}'")
        for strings, values, help_text in _options(command):
            flags = " ".join(f"-l {s[2:]}" if s.startswith("--") else f"-s {s[1:]}" for s in strings)
            argument = f" -x -a '{' '.join(values)}'" if values else ""
            about = help_text.replace("'", "\\'")
            lines.append(f"complete -c nhex -n '__fish_seen_subcommand_from {name}' {flags}{argument} -d '{about}'")
    return "\n".join(lines) + "\n"
