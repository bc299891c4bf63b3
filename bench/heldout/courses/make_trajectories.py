"""Generate trajectories.jsonl: seeded support sessions of the enrollment office, each checked against adapter.py.

Every call states whether the real system must accept or refuse it; a session whose replay disagrees stops the
script (exit 1). Output is byte-identical for the same seed and data.json.
"""

import json
import os
import random
import sys

import adapter

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20250917
REASONS = [
    "schedule conflict with work",
    "course load too heavy",
    "changed major",
    "family emergency",
    "moving to the evening section",
    "financial reasons",
    "advisor recommended a lighter term",
]


class Skip(Exception):
    """The template does not apply to the drawn records."""


class Session:
    """Runs calls on a fresh adapter and records them with their expected outcome."""

    def __init__(self, initial):
        self.reg = adapter.make()
        self.reg.reset(initial)
        self.calls = []

    def do(self, name, arguments, ok=True):
        result = self.reg.call(name, arguments)
        if result["ok"] != ok:
            raise AssertionError("%s(%s): expected ok=%s, got %r" % (name, arguments, ok, result["output"]))
        self.calls.append({"name": name, "arguments": arguments})
        return result["output"]


def probe(initial, name, arguments):
    """Outcome of one call on the initial state (used to draw candidates)."""
    reg = adapter.make()
    reg.reset(initial)
    return reg.call(name, arguments)


def classify(initial):
    """Group (student, section) pairs by what enroll_student answers on the initial state."""
    groups = {}
    for student_id in sorted(initial["students"]):
        for section_id in sorted(initial["sections"]):
            result = probe(initial, "enroll_student", {"student_id": student_id, "section_id": section_id})
            if result["ok"]:
                key = "ok"
            else:
                text = result["output"]
                key = next(
                    (
                        k
                        for k in (
                            "holds",
                            "is suspended",
                            "prerequisites",
                            "add deadline",
                            "is full",
                            "credit limit",
                            "graduate course",
                            "cancelled",
                            "completed",
                            "already has",
                        )
                        if k in text
                    ),
                    "other",
                )
            groups.setdefault(key, []).append((student_id, section_id))
    return groups


def enrolled(initial, status, session=None, student=None):
    """Enrollment ids with this status, optionally in sections of one session or of one student."""
    out = []
    for eid in sorted(initial["enrollments"]):
        e = initial["enrollments"][eid]
        sec = initial["sections"][e["section_id"]]
        if (
            e["status"] == status
            and (session is None or sec["session"] in session)
            and (student is None or e["student_id"] == student)
        ):
            out.append(eid)
    return out


def name_of(initial, student_id):
    return initial["students"][student_id]["name"]


# ----- templates: each returns an instruction and fills the session -----
def t_enroll_ok(rng, s, init, g):
    student, section = rng.choice(g["ok"])
    course = init["sections"][section]["course_code"]
    s.do("get_student", {"student_id": student})
    s.do("search_sections", {"course_code": course, "open_seats_only": True})
    mode = "letter"
    if init["courses"][course]["pass_fail_allowed"] and rng.random() < 0.3:
        mode = "pass_fail"
    args = {"student_id": student, "section_id": section}
    if mode != "letter" or rng.random() < 0.3:
        args["grade_mode"] = mode
    s.do("enroll_student", args)
    return "%s (%s) wants to add %s, section %s, graded %s." % (
        name_of(init, student),
        student,
        course,
        section,
        mode.replace("_", "/"),
    )


def t_enroll_quote(rng, s, init, g):
    student, section = rng.choice(g["ok"])
    s.do("quote_tuition", {"student_id": student, "section_ids": [section]})
    s.do("enroll_student", {"student_id": student, "section_id": section})
    s.do("get_student", {"student_id": student})
    return "%s asks what %s would cost, then enrolls in it and wants the new balance." % (student, section)


def t_enroll_refused(rng, s, init, g):
    key = rng.choice(
        [
            "holds",
            "prerequisites",
            "add deadline",
            "credit limit",
            "graduate course",
            "is suspended",
            "completed",
            "cancelled",
        ]
    )
    if key not in g:
        raise Skip
    student, section = rng.choice(g[key])
    s.do("get_student", {"student_id": student})
    s.do("get_section", {"section_id": section})
    s.do("enroll_student", {"student_id": student, "section_id": section}, ok=False)
    return "%s (%s) insists on being enrolled in %s today." % (name_of(init, student), student, section)


def t_waitlist(rng, s, init, g):
    student, section = rng.choice(g["is full"])
    s.do("get_section", {"section_id": section})
    first = rng.random() < 0.4
    if first:
        s.do("enroll_student", {"student_id": student, "section_id": section}, ok=False)
    s.do("enroll_student", {"student_id": student, "section_id": section, "join_waitlist": True})
    return "%s wants a seat in %s; if it is full, put them on the waitlist." % (student, section)


def t_drop(rng, s, init, g):
    eid = rng.choice(enrolled(init, "enrolled", ("FULL", "B")) + enrolled(init, "waitlisted"))
    student = init["enrollments"][eid]["student_id"]
    s.do("list_enrollments", {"student_id": student, "status": init["enrollments"][eid]["status"]})
    args = {"enrollment_id": eid}
    if rng.random() < 0.7:
        args["reason"] = rng.choice(REASONS)
    s.do("drop_enrollment", args)
    if rng.random() < 0.4:
        s.do("get_student", {"student_id": student})
    return "%s wants to drop %s (%s)." % (student, init["enrollments"][eid]["course_code"], eid)


def t_drop_late(rng, s, init, g):
    eid = rng.choice(enrolled(init, "enrolled", ("A",)))
    student = init["enrollments"][eid]["student_id"]
    reason = rng.choice(REASONS)
    if rng.random() < 0.5:
        s.do("get_student", {"student_id": student})
    s.do("list_enrollments", {"student_id": student})
    s.do("drop_enrollment", {"enrollment_id": eid, "reason": reason}, ok=False)
    s.do("withdraw_enrollment", {"enrollment_id": eid, "reason": reason})
    return "%s wants out of %s (first-half session): drop it, or withdraw if dropping is closed." % (
        student,
        init["enrollments"][eid]["section_id"],
    )


def t_withdraw_early(rng, s, init, g):
    eid = rng.choice(enrolled(init, "enrolled", ("FULL", "B")))
    student = init["enrollments"][eid]["student_id"]
    s.do("get_section", {"section_id": init["enrollments"][eid]["section_id"]})
    s.do("withdraw_enrollment", {"enrollment_id": eid}, ok=False)
    s.do("drop_enrollment", {"enrollment_id": eid, "reason": rng.choice(REASONS)})
    return "%s asks to withdraw from %s; use the right procedure for today's date." % (student, eid)


def t_switch_section(rng, s, init, g):
    options = []
    for eid in enrolled(init, "enrolled", ("FULL", "B")):
        e = init["enrollments"][eid]
        for other in sorted(init["sections"]):
            sec = init["sections"][other]
            if other == e["section_id"] or sec["course_code"] != e["course_code"]:
                continue
            trial = adapter.make()
            trial.reset(init)
            trial.call("drop_enrollment", {"enrollment_id": eid})
            if trial.call(
                "enroll_student", {"student_id": e["student_id"], "section_id": other, "join_waitlist": True}
            )["ok"]:
                options.append((eid, other))
    if not options:
        raise Skip
    eid, other = rng.choice(options)
    student = init["enrollments"][eid]["student_id"]
    s.do("search_sections", {"course_code": init["enrollments"][eid]["course_code"]})
    full = init["sections"][other]["enrolled_count"] >= init["sections"][other]["capacity"]
    s.do("drop_enrollment", {"enrollment_id": eid, "reason": "moving to section %s" % other})
    args = {"student_id": student, "section_id": other}
    if full:
        args["join_waitlist"] = True
    s.do("enroll_student", args)
    return "%s wants to move from %s to %s (waitlist if needed)." % (
        student,
        init["enrollments"][eid]["section_id"],
        other,
    )


def t_grade_mode(rng, s, init, g):
    eid = rng.choice(enrolled(init, "enrolled"))
    e = init["enrollments"][eid]
    mode = rng.choice([m for m in adapter.GRADE_MODES if m != e["grade_mode"]])
    s.do("get_course", {"course_code": e["course_code"]})
    ok = probe(init, "change_grade_mode", {"enrollment_id": eid, "grade_mode": mode})["ok"]
    s.do("change_grade_mode", {"enrollment_id": eid, "grade_mode": mode}, ok=ok)
    if ok and "audit" in (mode, e["grade_mode"]):
        s.do("get_student", {"student_id": e["student_id"]})
    return "%s wants %s switched to %s." % (e["student_id"], e["course_code"], mode.replace("_", "/"))


def t_quote(rng, s, init, g):
    student = rng.choice(sorted(init["students"]))
    dept = rng.choice(sorted({c["department"] for c in init["courses"].values()}))
    found = s.do("search_sections", {"department": dept, "open_seats_only": True})
    picks = [r["section_id"] for r in found][:2]
    if not picks:
        raise Skip
    mode = rng.choice(["letter", "letter", "audit", "pass_fail"])
    args = {"student_id": student, "section_ids": picks}
    if mode != "letter":
        args["grade_mode"] = mode
    s.do("quote_tuition", args)
    return "%s wants a price for the open %s sections (%s grading)." % (student, dept, mode.replace("_", "/"))


def t_place_hold(rng, s, init, g):
    student = rng.choice(sorted(init["students"]))
    hold = rng.choice(adapter.HOLD_TYPES)
    ok = hold not in init["students"][student]["holds"]
    s.do("get_student", {"student_id": student})
    s.do("place_hold", {"student_id": student, "hold_type": hold}, ok=ok)
    return "The %s office asks for a %s hold on %s." % (
        {
            "advising": "advising",
            "financial": "bursar's",
            "immunization": "health services",
            "conduct": "dean of students'",
        }[hold],
        hold,
        student,
    )


def t_release_and_enroll(rng, s, init, g):
    student = rng.choice([sid for sid in sorted(init["students"]) if init["students"][sid]["holds"]])
    hold = init["students"][student]["holds"][0]
    s.do("get_student", {"student_id": student})
    ok = probe(init, "release_hold", {"student_id": student, "hold_type": hold})["ok"]
    s.do("release_hold", {"student_id": student, "hold_type": hold}, ok=ok)
    if not ok:
        return "The bursar says %s's financial hold can go; release it." % student
    trial = adapter.make()
    trial.reset(s.reg.state())
    sections = [
        sid
        for sid in sorted(init["sections"])
        if trial.call("enroll_student", {"student_id": student, "section_id": sid})["ok"]
    ]
    if not sections:
        return "The %s hold of %s is cleared; release it." % (hold, student)
    section = rng.choice(sections)
    s.do("enroll_student", {"student_id": student, "section_id": section})
    return "The %s hold of %s is cleared; release it and register them in %s." % (hold, student, section)


def t_lookup(rng, s, init, g):
    args = rng.choice(
        [
            {"instructor": rng.choice(["Okafor", "Haddad", "Reyes", "Nakamura", "Castellanos"])},
            {"days": rng.choice(["MWF", "TR", "MW"]), "session": rng.choice(["FULL", "B"])},
            {"department": rng.choice(["MATH", "CS", "CHEM", "HIST"])},
        ]
    )
    found = s.do("search_sections", args)
    if found:
        s.do("get_section", {"section_id": rng.choice(found)["section_id"]})
    return "A student asks which sections match %s." % json.dumps(args, sort_keys=True)


def t_wrong_id(rng, s, init, g):
    real = rng.choice(sorted(init["students"]))
    wrong = "STU-%d" % rng.choice([1013, 1020, 1100, 1200])
    s.do("get_student", {"student_id": wrong}, ok=False)
    s.do("list_enrollments", {"student_id": real})
    return "A student gives id %s, then corrects it to %s and asks for their schedule." % (wrong, real)


def t_section_roster(rng, s, init, g):
    section = rng.choice(sorted(init["sections"]))
    status = rng.choice([None, "enrolled", "waitlisted"])
    args = {"section_id": section}
    if status:
        args["status"] = status
    s.do("list_enrollments", args)
    s.do("get_section", {"section_id": section})
    return "An instructor asks for the %s roster of %s." % (status or "full", section)


def t_two_courses(rng, s, init, g):
    by_student = {}
    for student, section in g["ok"]:
        by_student.setdefault(student, []).append(section)
    options = [
        (st, secs)
        for st, secs in sorted(by_student.items())
        if len({init["sections"][x]["course_code"] for x in secs}) >= 2
    ]
    if not options:
        raise Skip
    student, sections = rng.choice(options)
    first = rng.choice(sections)
    second = rng.choice(
        [x for x in sections if init["sections"][x]["course_code"] != init["sections"][first]["course_code"]]
    )
    s.do("get_student", {"student_id": student})
    s.do("quote_tuition", {"student_id": student, "section_ids": [first, second]})
    s.do("enroll_student", {"student_id": student, "section_id": first})
    trial = adapter.make()
    trial.reset(s.reg.state())
    ok = trial.call("enroll_student", {"student_id": student, "section_id": second})["ok"]
    s.do("enroll_student", {"student_id": student, "section_id": second}, ok=ok)
    s.do("list_enrollments", {"student_id": student, "status": "enrolled"})
    return "%s wants both %s and %s, after hearing the price; then confirm the schedule." % (student, first, second)


def t_single(rng, s, init, g):
    kind = rng.choice(["course", "section", "student"])
    if kind == "course":
        code = rng.choice(sorted(init["courses"]))
        s.do("get_course", {"course_code": code})
        return "Which prerequisites does %s have, and is it offered pass/fail?" % code
    if kind == "section":
        section = rng.choice(sorted(init["sections"]))
        s.do("get_section", {"section_id": section})
        return "How many seats are left in %s?" % section
    student = rng.choice(sorted(init["students"]))
    s.do("get_student", {"student_id": student})
    return "%s asks for their current balance and holds." % student


TEMPLATES = [
    (t_enroll_ok, 6),
    (t_enroll_quote, 4),
    (t_enroll_refused, 8),
    (t_waitlist, 5),
    (t_drop, 7),
    (t_drop_late, 3),
    (t_withdraw_early, 3),
    (t_switch_section, 4),
    (t_grade_mode, 7),
    (t_quote, 5),
    (t_place_hold, 4),
    (t_release_and_enroll, 5),
    (t_lookup, 3),
    (t_wrong_id, 2),
    (t_section_roster, 3),
    (t_two_courses, 4),
    (t_single, 3),
]


def main():
    with open(os.path.join(HERE, "data.json")) as handle:
        initial = json.load(handle)
    groups = classify(initial)
    rng = random.Random(SEED)
    plan = [template for template, weight in TEMPLATES for _ in range(weight)]
    rng.shuffle(plan)
    lines, calls, failed = [], 0, 0
    for template in plan:
        for _attempt in range(10):
            session = Session(initial)
            try:
                instruction = template(rng, session, initial, groups)
                break
            except Skip:
                continue
            except AssertionError as err:
                print("make_trajectories.py: %s disagrees with adapter.py: %s" % (template.__name__, err))
                return 1
        else:
            print("make_trajectories.py: %s never applied to data.json" % template.__name__)
            return 1
        tid = "courses_%03d" % len(lines)
        lines.append(json.dumps({"id": tid, "instruction": instruction, "calls": session.calls}, sort_keys=True))
        calls += len(session.calls)
        # replay from scratch: the recorded calls alone must reproduce the expected outcomes
        replay = adapter.make()
        replay.reset(initial)
        failed += sum(not replay.call(c["name"], c["arguments"])["ok"] for c in session.calls)
    path = os.path.join(HERE, "trajectories.jsonl")
    with open(path + ".tmp", "w") as handle:
        handle.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)
    print("trajectories=%d calls=%d failing=%d (%.1f%%)" % (len(lines), calls, failed, 100.0 * failed / calls))
    return 0


if __name__ == "__main__":
    sys.exit(main())
