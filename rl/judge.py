"""The user-error judge (ERPO's MEU): did the simulated user say something its instruction contradicts?

Two parts, as the design asks for weak models (docs/rollouts.md):
- a deterministic prior over concrete values: an identifier or number the user gave (anything with a
  digit, an e-mail) that is neither in its instruction nor said earlier by the agent, compared in
  canonical forms so that paraphrases pass (rl/judge_values.py: "three" for 3, "1,000", "3.0", a date
  in another format, a phone number's digit groups, the tail of a long id; list numbers are not values);
  or a color, weekday or month the user named while its instruction names a different one;
- an LLM vote: three short yes/no paraphrases (synth/prompts/judge_user_error.j2, asked through
  synth.llm.ask), majority of the answers that say yes or no.
The verdict is an error when the prior finds one or the LLM majority says so (`mode` picks either part
alone for the ablation). `rl.judge_eval` measures all three on tests/data/judge_labeled.jsonl.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rl.judge_values import allowed_forms, is_allowed, stated_values
from synth.llm import LLMClient, render
from synth.llm.ask import ask_yes_no, variant_questions, vote_word

JUDGE_MODES = ("prior+llm", "llm", "prior")
_WORD = re.compile(r"[a-z]+")
CLOSED_CLASSES: dict[str, frozenset[str]] = {
    "color": frozenset(
        "red blue green yellow black white gray grey orange purple pink brown silver gold beige navy".split()
    ),
    "weekday": frozenset("monday tuesday wednesday thursday friday saturday sunday".split()),
    "month": frozenset("january february march april june july august september october november december".split()),
}


@dataclass
class JudgeVerdict:
    """user_error True means: mask this trajectory. `votes` are the LLM's answers ("yes"/"no"/"?")."""

    user_error: bool
    rationale: str
    prior_hits: list[str] = field(default_factory=list)
    votes: list[str] = field(default_factory=list)
    llm_error: bool | None = None


def prior_hits(instruction: str, dialogue: list[dict[str, Any]]) -> list[str]:
    """Concrete values the user stated that conflict with its instruction (see module doc)."""
    allowed = allowed_forms(instruction)
    instr_words = set(_WORD.findall(instruction.lower()))
    hits: list[str] = []
    for m in dialogue:
        content = str(m.get("content") or "")
        if m.get("role") == "assistant":
            allowed |= allowed_forms(content)
            continue
        if m.get("role") != "user":
            continue
        seen: set[str] = set()
        for written, value in stated_values(content):
            if value not in seen and not is_allowed(value, allowed):
                seen.add(value)
                hits.append(
                    f"the user said {written.lower().strip().rstrip('.,').lstrip('#')!r}, "
                    "which is not in its instruction"
                )
        words = set(_WORD.findall(content.lower()))
        for name, members in CLOSED_CLASSES.items():
            said, told = words & members, instr_words & members
            if told and said - told:
                hits.append(
                    f"the user named {name} {', '.join(sorted(said - told))!r}, "
                    f"the instruction says {', '.join(sorted(told))!r}"
                )
    return hits


def user_lines(dialogue: list[dict[str, Any]]) -> list[str]:
    return [
        str(m.get("content") or "").strip()
        for m in dialogue
        if m.get("role") == "user" and str(m.get("content") or "").strip()
    ]


class UserErrorJudge:
    """Judges dialogues with an LLM client (temperature 0 and cached, so verdicts are repeatable)."""

    def __init__(
        self,
        client: LLMClient | None,
        mode: str = "prior+llm",
        variants: tuple[int, ...] = (0, 1, 2),
        explain: bool = True,
    ):
        if mode not in JUDGE_MODES:
            raise ValueError(f"judge mode {mode!r} is not one of {', '.join(JUDGE_MODES)}")
        if client is None and mode != "prior":
            raise ValueError(f"judge mode {mode!r} needs an LLM client")
        self.client, self.mode, self.variants, self.explain = client, mode, variants, explain

    def llm_votes(self, instruction: str, dialogue: list[dict[str, Any]]) -> list[str]:
        """One normalized vote per variant: 'yes' means the user erred."""
        questions = variant_questions(
            "judge_user_error", self.variants, instruction=instruction, user_lines=user_lines(dialogue)
        )
        inverted = {i for i, v in enumerate(self.variants) if v == 1}  # "does everything agree?" -> yes means clean
        ballot = ask_yes_no(
            self.client, questions, tag="judge", max_tokens=8, temperature=0.0, wrap=False, inverted=inverted
        )
        return [vote_word(v) for v in ballot.votes]

    def judge(self, instruction: str, dialogue: list[dict[str, Any]]) -> JudgeVerdict:
        """Verdict and rationale for one dialogue (the trajectory's `messages`)."""
        hits = prior_hits(instruction, dialogue) if self.mode != "llm" else []
        votes: list[str] = []
        llm_error: bool | None = None
        if self.mode != "prior":
            votes = self.llm_votes(instruction, dialogue)
            yes, no = votes.count("yes"), votes.count("no")
            llm_error = yes > no
        error = bool(hits) or bool(llm_error)
        reasons = list(hits)
        if votes:
            reasons.append(f"LLM votes (yes = contradiction): {'/'.join(votes)}")
            if self.explain and llm_error:
                prompt = render(
                    "judge_rationale", instruction=instruction, user_lines=user_lines(dialogue), verdict="contradicts"
                )
                said = self.client.chat(
                    [{"role": "user", "content": prompt}], max_tokens=48, temperature=0.0, tag="judge"
                ).text
                reasons.append("LLM: " + " ".join(said.split())[:240])
        return JudgeVerdict(
            user_error=error,
            rationale="; ".join(reasons) or "no contradiction found",
            prior_hits=hits,
            votes=votes,
            llm_error=llm_error,
        )
