"""The reviewed behaviour set passes with a scripted chat model that follows the prompts (issue 8)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bots.evaluation.behavior import BehaviorRunner, load_behavior
from bots.settings import Settings
from tests.conftest import REPO
from tests.llm_fakes import scripted_models

pytestmark = pytest.mark.model

CASES = REPO / "examples" / "behavior" / "cases.yaml"


async def test_the_behaviour_set_passes_with_a_scripted_model(tmp_path: Path) -> None:
    spec = load_behavior(CASES)
    settings = Settings(data_dir=tmp_path, fixed_now=spec.clock, channel_mismatch_probe=spec.channel_mismatch_probe)
    models = scripted_models()
    outcomes = await BehaviorRunner(spec=spec, base=CASES.parent, settings=settings, chat_models=models).run()
    failed = {o["id"]: o["problems"] for o in outcomes if not o["passed"]}
    assert not failed
    steps = Counter((s["stage"], s["path"]) for o in outcomes for s in o["result"]["llm_steps"])
    # The model was asked at every stage it serves, and what it said was used.
    for stage in ("route", "synthesis", "reflection", "summary", "reformulate", "clarification"):
        assert steps[(stage, "llm")] > 0, stage
    answered = [o for o in outcomes if o["kind"] == "answer" and o["route"] in ("hybrid", "long_text")]
    synthesized = [o for o in answered if any(s["stage"] == "synthesis" for s in o["result"]["llm_steps"])]
    assert synthesized == answered
