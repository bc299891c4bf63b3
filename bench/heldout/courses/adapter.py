"""Northgate Registrar enrollment API: the real system behind tools.json (standard library only).

`make()` returns a Registrar with `reset(state)`, `call(name, arguments)` and `state()`.
`python adapter.py` replays every trajectory of trajectories.jsonl from data.json and prints the counts.
"""

import copy
import decimal
import json
import os
import sys

HOLD_TYPES = ("advising", "financial", "immunization", "conduct")
GRADE_MODES = ("letter", "pass_fail", "audit")
FINANCIAL_RELEASE_LIMIT = 1000.0


class RegistrarError(Exception):
    """A refused call; its message becomes the error output."""


def _money(value):
    """Round an amount to the cent, halves away from zero."""
    cents = decimal.Decimal(repr(float(value))).quantize(decimal.Decimal("0.01"), rounding=decimal.ROUND_HALF_UP)
    return float(cents) + 0.0


class Registrar:
    """The enrollment office's system over one in-memory state."""

    def __init__(self):
        self.data = {}

    # ----- protocol -----
    def reset(self, state):
        """Start from a deep copy of `state` (data.json's layout)."""
        self.data = copy.deepcopy(state)

    def state(self):
        """The whole state, deep-copied."""
        return copy.deepcopy(self.data)

    def call(self, name, arguments):
        """Run one tool; failures come back as {"ok": False, "output": "Error: ..."}."""
        handler = TOOLS.get(name)
        if handler is None:
            return {"ok": False, "output": "Error: unknown tool '%s'" % name}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Error: arguments must be an object"}
        try:
            return {"ok": True, "output": handler(self, dict(arguments))}
        except RegistrarError as err:
            return {"ok": False, "output": "Error: %s" % err}

    # ----- helpers -----
    def _today(self):
        return self.data["term"]["today"]

    def _student(self, student_id):
        student = self.data["students"].get(student_id)
        if student is None:
            raise RegistrarError("student %s not found" % student_id)
        return student

    def _section(self, section_id):
        section = self.data["sections"].get(section_id)
        if section is None:
            raise RegistrarError("section %s not found" % section_id)
        return section

    def _course(self, course_code):
        course = self.data["courses"].get(course_code)
        if course is None:
            raise RegistrarError("course %s not found" % course_code)
        return course

    def _enrollment(self, enrollment_id):
        enrollment = self.data["enrollments"].get(enrollment_id)
        if enrollment is None:
            raise RegistrarError("enrollment %s not found" % enrollment_id)
        return enrollment

    def _session(self, section):
        return self.data["term"]["sessions"][section["session"]]

    def _charge(self, student, course, grade_mode):
        rate = self.data["term"]["rate_per_credit"][student["level"]]
        if grade_mode == "audit":
            return _money(course["credits"] * rate * 0.5), 0.0
        return _money(course["credits"] * rate), _money(course["lab_fee"])

    def _next_enrollment_id(self):
        numbers = [int(key.split("-")[1]) for key in self.data["enrollments"]]
        return "ENR-%05d" % (max(numbers, default=50000) + 1)


def _req(args, key, kind=str):
    if key not in args or args[key] is None:
        raise RegistrarError("missing required parameter '%s'" % key)
    value = args[key]
    if kind is str and not isinstance(value, str):
        raise RegistrarError("parameter '%s' must be a string" % key)
    if kind is list and not isinstance(value, list):
        raise RegistrarError("parameter '%s' must be an array" % key)
    return value


def _opt(args, key, kind=str):
    if args.get(key) is None:
        return None
    return _req(args, key, kind)


def _opt_bool(args, key, default):
    value = args.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise RegistrarError("parameter '%s' must be a boolean" % key)
    return value


def _grade_mode(args, default=None):
    mode = args.get("grade_mode", default)
    if mode not in GRADE_MODES:
        raise RegistrarError("grade_mode must be one of letter, pass_fail, audit")
    return mode


# ----- reads -----
def get_student(reg, args):
    return copy.deepcopy(reg._student(_req(args, "student_id")))


def get_course(reg, args):
    course = copy.deepcopy(reg._course(_req(args, "course_code")))
    course["section_ids"] = sorted(
        sid for sid, s in reg.data["sections"].items() if s["course_code"] == course["course_code"]
    )
    return course


def get_section(reg, args):
    section = copy.deepcopy(reg._section(_req(args, "section_id")))
    course = reg.data["courses"][section["course_code"]]
    section["title"] = course["title"]
    section["credits"] = course["credits"]
    section["seats_available"] = max(section["capacity"] - section["enrolled_count"], 0)
    return section


def search_sections(reg, args):
    department = _opt(args, "department")
    course_code = _opt(args, "course_code")
    instructor = _opt(args, "instructor")
    session = _opt(args, "session")
    days = _opt(args, "days")
    open_only = _opt_bool(args, "open_seats_only", False)
    results = []
    for section_id in sorted(reg.data["sections"]):
        section = reg.data["sections"][section_id]
        course = reg.data["courses"][section["course_code"]]
        if department and course["department"].lower() != department.lower():
            continue
        if course_code and section["course_code"].lower() != course_code.lower():
            continue
        if instructor and instructor.lower() not in section["instructor"].lower():
            continue
        if session and section["session"].lower() != session.lower():
            continue
        if days and section["days"].upper() != days.upper():
            continue
        seats = max(section["capacity"] - section["enrolled_count"], 0)
        if open_only and (seats == 0 or section["status"] != "open"):
            continue
        results.append(
            {
                "section_id": section_id,
                "course_code": section["course_code"],
                "title": course["title"],
                "credits": course["credits"],
                "session": section["session"],
                "days": section["days"],
                "time": section["time"],
                "instructor": section["instructor"],
                "status": section["status"],
                "seats_available": seats,
                "waitlist_length": len(section["waitlist"]),
            }
        )
    return results


def list_enrollments(reg, args):
    student_id = _opt(args, "student_id")
    section_id = _opt(args, "section_id")
    status = _opt(args, "status")
    if student_id is None and section_id is None:
        raise RegistrarError("give student_id or section_id")
    if student_id is not None:
        reg._student(student_id)
    if section_id is not None:
        reg._section(section_id)
    results = []
    for enrollment_id in sorted(reg.data["enrollments"]):
        enrollment = reg.data["enrollments"][enrollment_id]
        if student_id is not None and enrollment["student_id"] != student_id:
            continue
        if section_id is not None and enrollment["section_id"] != section_id:
            continue
        if status is not None and enrollment["status"] != status:
            continue
        results.append(copy.deepcopy(enrollment))
    return results


def quote_tuition(reg, args):
    student = reg._student(_req(args, "student_id"))
    section_ids = _req(args, "section_ids", list)
    if not section_ids:
        raise RegistrarError("section_ids must not be empty")
    mode = _grade_mode(args, "letter")
    lines = []
    for section_id in section_ids:
        section = reg._section(section_id)
        course = reg.data["courses"][section["course_code"]]
        tuition, lab_fee = reg._charge(student, course, mode)
        lines.append(
            {
                "section_id": section_id,
                "course_code": course["course_code"],
                "credits": course["credits"],
                "tuition": tuition,
                "lab_fee": lab_fee,
                "subtotal": _money(tuition + lab_fee),
            }
        )
    return {
        "student_id": student["student_id"],
        "grade_mode": mode,
        "rate_per_credit": reg.data["term"]["rate_per_credit"][student["level"]],
        "lines": lines,
        "total_credits": sum(line["credits"] for line in lines),
        "total": _money(sum(line["subtotal"] for line in lines)),
    }


# ----- writes -----
def enroll_student(reg, args):
    student = reg._student(_req(args, "student_id"))
    section = reg._section(_req(args, "section_id"))
    mode = _grade_mode(args, "letter")
    join_waitlist = _opt_bool(args, "join_waitlist", False)
    course = reg.data["courses"][section["course_code"]]
    today = reg._today()
    if student["status"] != "active":
        raise RegistrarError("student %s is %s and cannot enroll" % (student["student_id"], student["status"]))
    if student["holds"]:
        raise RegistrarError("student %s has holds: %s" % (student["student_id"], ", ".join(student["holds"])))
    if section["status"] != "open":
        raise RegistrarError("section %s is %s" % (section["section_id"], section["status"]))
    if today > reg._session(section)["add_by"]:
        raise RegistrarError(
            "the add deadline for session %s was %s" % (section["session"], reg._session(section)["add_by"])
        )
    if course["level"] == "graduate" and student["level"] != "graduate":
        raise RegistrarError("%s is a graduate course" % course["course_code"])
    if course["course_code"] in student["completed_courses"]:
        raise RegistrarError("student has already completed %s" % course["course_code"])
    for other in reg.data["enrollments"].values():
        if (
            other["student_id"] == student["student_id"]
            and other["course_code"] == course["course_code"]
            and other["status"] in ("enrolled", "waitlisted")
        ):
            raise RegistrarError(
                "student already has enrollment %s (%s) in %s"
                % (other["enrollment_id"], other["status"], course["course_code"])
            )
    missing = [code for code in course["prerequisites"] if code not in student["completed_courses"]]
    if missing:
        raise RegistrarError("missing prerequisites: %s" % ", ".join(missing))
    if mode == "pass_fail" and not course["pass_fail_allowed"]:
        raise RegistrarError("%s cannot be taken pass/fail" % course["course_code"])
    full = section["enrolled_count"] >= section["capacity"]
    if full:
        if not join_waitlist:
            raise RegistrarError("section %s is full" % section["section_id"])
        if len(section["waitlist"]) >= reg.data["term"]["waitlist_limit"]:
            raise RegistrarError("the waitlist of section %s is full" % section["section_id"])
    else:
        limit = reg.data["term"]["max_credits"][student["level"]]
        if student["credits_enrolled"] + course["credits"] > limit:
            raise RegistrarError(
                "credit limit exceeded: %d enrolled + %d > %d" % (student["credits_enrolled"], course["credits"], limit)
            )
    enrollment_id = reg._next_enrollment_id()
    enrollment = {
        "enrollment_id": enrollment_id,
        "student_id": student["student_id"],
        "section_id": section["section_id"],
        "course_code": course["course_code"],
        "credits": course["credits"],
        "grade_mode": mode,
        "status": "waitlisted" if full else "enrolled",
        "tuition_charged": 0.0,
        "refunded": 0.0,
        "history": [],
    }
    if full:
        section["waitlist"].append(student["student_id"])
        enrollment["history"].append(
            {"date": today, "event": "waitlisted", "note": "position %d" % len(section["waitlist"])}
        )
    else:
        tuition, lab_fee = reg._charge(student, course, mode)
        enrollment["tuition_charged"] = _money(tuition + lab_fee)
        section["enrolled_count"] += 1
        student["credits_enrolled"] += course["credits"]
        student["balance"] = _money(student["balance"] + enrollment["tuition_charged"])
        enrollment["history"].append({"date": today, "event": "enrolled", "note": ""})
    reg.data["enrollments"][enrollment_id] = enrollment
    return copy.deepcopy(enrollment)


def _free_seat(reg, enrollment):
    student = reg.data["students"][enrollment["student_id"]]
    section = reg.data["sections"][enrollment["section_id"]]
    section["enrolled_count"] = max(section["enrolled_count"] - 1, 0)
    student["credits_enrolled"] -= enrollment["credits"]
    return student


def drop_enrollment(reg, args):
    enrollment = reg._enrollment(_req(args, "enrollment_id"))
    reason = _opt(args, "reason") or ""
    section = reg.data["sections"][enrollment["section_id"]]
    if enrollment["status"] not in ("enrolled", "waitlisted"):
        raise RegistrarError("enrollment %s is %s" % (enrollment["enrollment_id"], enrollment["status"]))
    drop_by = reg._session(section)["drop_by"]
    if reg._today() > drop_by:
        raise RegistrarError(
            "the drop deadline for session %s was %s; use withdraw_enrollment" % (section["session"], drop_by)
        )
    if enrollment["status"] == "waitlisted":
        if enrollment["student_id"] in section["waitlist"]:
            section["waitlist"].remove(enrollment["student_id"])
    else:
        student = _free_seat(reg, enrollment)
        refund = _money(enrollment["tuition_charged"] - enrollment["refunded"])
        enrollment["refunded"] = _money(enrollment["refunded"] + refund)
        student["balance"] = _money(student["balance"] - refund)
    enrollment["status"] = "dropped"
    enrollment["history"].append({"date": reg._today(), "event": "dropped", "note": reason})
    return copy.deepcopy(enrollment)


def withdraw_enrollment(reg, args):
    enrollment = reg._enrollment(_req(args, "enrollment_id"))
    reason = _opt(args, "reason") or ""
    section = reg.data["sections"][enrollment["section_id"]]
    if enrollment["status"] != "enrolled":
        raise RegistrarError(
            "enrollment %s is %s; only enrolled courses can be withdrawn"
            % (enrollment["enrollment_id"], enrollment["status"])
        )
    dates = reg._session(section)
    if reg._today() <= dates["drop_by"]:
        raise RegistrarError(
            "session %s is still in its drop period (until %s); use drop_enrollment"
            % (section["session"], dates["drop_by"])
        )
    if reg._today() > dates["withdraw_by"]:
        raise RegistrarError(
            "the withdrawal deadline for session %s was %s" % (section["session"], dates["withdraw_by"])
        )
    student = _free_seat(reg, enrollment)
    percent = reg.data["term"]["withdrawal_refund_percent"]
    refund = _money(enrollment["tuition_charged"] * percent / 100.0)
    enrollment["refunded"] = _money(enrollment["refunded"] + refund)
    student["balance"] = _money(student["balance"] - refund)
    enrollment["status"] = "withdrawn"
    enrollment["history"].append({"date": reg._today(), "event": "withdrawn", "note": reason})
    return copy.deepcopy(enrollment)


def change_grade_mode(reg, args):
    enrollment = reg._enrollment(_req(args, "enrollment_id"))
    mode = _grade_mode(args)
    section = reg.data["sections"][enrollment["section_id"]]
    course = reg.data["courses"][enrollment["course_code"]]
    student = reg.data["students"][enrollment["student_id"]]
    if enrollment["status"] != "enrolled":
        raise RegistrarError("enrollment %s is %s" % (enrollment["enrollment_id"], enrollment["status"]))
    if mode == enrollment["grade_mode"]:
        raise RegistrarError("enrollment %s is already %s" % (enrollment["enrollment_id"], mode))
    drop_by = reg._session(section)["drop_by"]
    if reg._today() > drop_by:
        raise RegistrarError("grade mode changes for session %s closed on %s" % (section["session"], drop_by))
    if mode == "pass_fail" and not course["pass_fail_allowed"]:
        raise RegistrarError("%s cannot be taken pass/fail" % course["course_code"])
    tuition, lab_fee = reg._charge(student, course, mode)
    new_charge = _money(tuition + lab_fee)
    difference = _money(new_charge - enrollment["tuition_charged"])
    student["balance"] = _money(student["balance"] + difference)
    enrollment["tuition_charged"] = new_charge
    note = "%s -> %s" % (enrollment["grade_mode"], mode)
    enrollment["grade_mode"] = mode
    enrollment["history"].append({"date": reg._today(), "event": "grade_mode_changed", "note": note})
    return copy.deepcopy(enrollment)


def place_hold(reg, args):
    student = reg._student(_req(args, "student_id"))
    hold = _req(args, "hold_type")
    if hold not in HOLD_TYPES:
        raise RegistrarError("hold_type must be one of %s" % ", ".join(HOLD_TYPES))
    if hold in student["holds"]:
        raise RegistrarError("student %s already has a %s hold" % (student["student_id"], hold))
    student["holds"].append(hold)
    student["history"].append({"date": reg._today(), "event": "hold_placed", "note": hold})
    return copy.deepcopy(student)


def release_hold(reg, args):
    student = reg._student(_req(args, "student_id"))
    hold = _req(args, "hold_type")
    if hold not in student["holds"]:
        raise RegistrarError("student %s has no %s hold" % (student["student_id"], hold))
    if hold == "financial" and student["balance"] > FINANCIAL_RELEASE_LIMIT:
        raise RegistrarError(
            "balance %.2f is above %.2f; the financial hold stays" % (student["balance"], FINANCIAL_RELEASE_LIMIT)
        )
    student["holds"].remove(hold)
    student["history"].append({"date": reg._today(), "event": "hold_released", "note": hold})
    return copy.deepcopy(student)


TOOLS = {
    f.__name__: f
    for f in (
        get_student,
        get_course,
        get_section,
        search_sections,
        list_enrollments,
        quote_tuition,
        enroll_student,
        drop_enrollment,
        withdraw_enrollment,
        change_grade_mode,
        place_hold,
        release_hold,
    )
}


def make():
    """A fresh Registrar (call reset() before use)."""
    return Registrar()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as handle:
        initial = json.load(handle)
    registrar = make()
    trajectories = calls = errors = 0
    with open(os.path.join(here, "trajectories.jsonl")) as handle:
        for line in handle:
            if not line.strip():
                continue
            trajectory = json.loads(line)
            registrar.reset(trajectory.get("initial_state", initial))
            trajectories += 1
            for step in trajectory["calls"]:
                calls += 1
                if not registrar.call(step["name"], step["arguments"])["ok"]:
                    errors += 1
    print("trajectories=%d calls=%d errors=%d" % (trajectories, calls, errors))
    return 0


if __name__ == "__main__":
    sys.exit(main())
