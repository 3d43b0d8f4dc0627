"""`python -m majordomus` is the same program as the `majordomus` command."""

from majordomus.cli.entry import console

console()
