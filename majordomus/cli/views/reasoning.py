"""Text renderings of the `reasoning` capabilities (reasoning §10.3), one section per capability.

Each view reads the capability's JSON answer (what `--format json` prints), never the domain.
"""

from __future__ import annotations

from typing import Any

from majordomus.cli.views import CliView, Params, lines

# -- reasoning.advisors ------------------------------------------------------------------------


def _advisor_row(state: dict[str, Any]) -> str:
    row = f"  {state['id']:<14} {state['status']:<18} {state['transport']:<13} {state['reason']}"
    if state.get("recovering"):
        row += " (recovering)"
    if state.get("circuit"):
        row += f" until {state['circuit']['until']}"
    return row


def advisors(out: Any, _: Params) -> str:
    mode = out["mode"]
    rows = [
        f"reasoning   operational · mode {mode['mode']} ({mode['source']})",
        f"advisors    {out['available']} available · {out['unavailable']} optional unavailable",
        *(_advisor_row(s) for s in out["advisors"]),
        "capacity",
        *(
            f"  {row['capability']:<22} {', '.join(row['available']) or 'local review'}"
            for row in out["capacity"]
        ),
        *(f"diagnostic  {text}" for text in out.get("diagnostics", [])),
    ]
    return lines(*rows)


# -- reasoning.plan ----------------------------------------------------------------------------


def plan(out: Any, _: Params) -> str:
    rows = [
        f"outcome     {out['outcome']}",
        f"reason      {out['reason']}",
        f"mode        {out['mode']} ({out['mode_source']}) · budget {out['budget']} · "
        f"available {out['available']}",
        *(
            f"consult     {s['advisor']} — covers {', '.join(s['covers'])} — {s['why']}"
            for s in out["selected"]
        ),
        *(f"excluded    {e['advisor']} — {e['reason']}" for e in out["excluded"]),
        *(f"local       {step}" for step in out.get("local_review", [])),
    ]
    return lines(*rows)


VIEWS = {
    "reasoning.advisors": CliView(text=advisors),
    "reasoning.plan": CliView(text=plan),
}
